#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/spi/spidev.h>

/* spidev's ioctls, whose request numbers are macros Swift cannot expand. */

/* SPI mode 0, 8-bit words, `speed_hz`. 0, or -errno. */
static inline int signd_spi_setup(int fd, uint32_t speed_hz) {
    uint8_t mode = SPI_MODE_0, bits = 8;
    if (ioctl(fd, SPI_IOC_WR_MODE, &mode) != 0) return -errno;
    if (ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits) != 0) return -errno;
    if (ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &speed_hz) != 0) return -errno;
    return 0;
}

/* Clocks `length` bytes out in one SPI_IOC_MESSAGE(1) transfer. The bytes written, or -errno. */
static inline int signd_spi_write(int fd, const void *bytes, uint32_t length, uint32_t speed_hz) {
    struct spi_ioc_transfer transfer;
    memset(&transfer, 0, sizeof transfer);
    transfer.tx_buf = (uint64_t)(uintptr_t)bytes;
    transfer.len = length;
    transfer.speed_hz = speed_hz;
    transfer.bits_per_word = 8;
    int n = ioctl(fd, SPI_IOC_MESSAGE(1), &transfer);
    return n < 0 ? -errno : n;
}
