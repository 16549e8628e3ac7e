#include <errno.h>
#include <sys/ioctl.h>

/* The kernel's struct termios2 (asm-generic layout), which glibc does not declare: a serial
   port's speed as a number of baud (BOTHER), so any rate the driver takes can be set. */
struct signd_termios2 {
    unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
    unsigned char c_line;
    unsigned char c_cc[19];
    unsigned int c_ispeed, c_ospeed;
};

/* Sets both speeds of the tty `fd` to `baud` through TCSETS2 and reads back what the driver
   kept into *kept. 0, or -errno. */
static inline int signd_set_baud(int fd, unsigned int baud, unsigned int *kept) {
    struct signd_termios2 t;
    if (ioctl(fd, _IOR('T', 0x2A, struct signd_termios2), &t) != 0) return -errno;
    t.c_cflag &= ~(0010017u | (0010017u << 16)); /* CBAUD, and CIBAUD: input speed = output */
    t.c_cflag |= 0010000u;                         /* BOTHER */
    t.c_ispeed = baud;
    t.c_ospeed = baud;
    if (ioctl(fd, _IOW('T', 0x2B, struct signd_termios2), &t) != 0) return -errno;
    if (ioctl(fd, _IOR('T', 0x2A, struct signd_termios2), &t) != 0) return -errno;
    *kept = t.c_ospeed;
    return 0;
}

/* Claims the tty for this process alone (TIOCEXCL): another program opening it gets EBUSY. */
static inline int signd_tty_exclusive(int fd) { return ioctl(fd, TIOCEXCL) == 0 ? 0 : -errno; }

/* Bytes written to the tty `fd` that have not left yet (TIOCOUTQ), or -errno. */
static inline int signd_tty_pending(int fd) {
    int n = 0;
    return ioctl(fd, TIOCOUTQ, &n) == 0 ? n : -errno;
}

/* The pseudo-terminal behind the master `fd` from /dev/ptmx: unlocks it (TIOCSPTLCK) and
   gives its number, N of /dev/pts/N (TIOCGPTN), or -errno. For standing a pty in for a port. */
static inline int signd_pty_unlock(int fd) {
    int lock = 0, number = 0;
    if (ioctl(fd, TIOCSPTLCK, &lock) != 0 || ioctl(fd, TIOCGPTN, &number) != 0) return -errno;
    return number;
}
