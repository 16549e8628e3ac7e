#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* sendmmsg(2)'s message, which glibc declares only under _GNU_SOURCE: one datagram's header
   and, after the call, how many of its bytes went. The kernel's layout (struct mmsghdr). */
struct signd_mmsghdr {
    struct msghdr msg_hdr;
    unsigned int msg_len;
};

/* Sends up to `count` messages in one system call: how many went (the first that did not go
   ends the call, and its errno is lost when some went before it), or -1 with errno set when
   the first did not. */
static inline int signd_sendmmsg(int fd, struct signd_mmsghdr *messages, unsigned int count, int flags) {
    return (int)syscall(SYS_sendmmsg, fd, messages, count, flags);
}

/* The room a UDP_SEGMENT control message takes (CMSG_SPACE of its u16). */
static inline size_t signd_udp_segment_space(void) { return CMSG_SPACE(sizeof(uint16_t)); }

/* Writes a UDP_SEGMENT control message (SOL_UDP, UDP GSO, Linux 4.18) into `control`, which
   has signd_udp_segment_space() bytes: the kernel cuts the message's payload into datagrams
   of `size` bytes, the last one shorter if the payload ends so. */
static inline void signd_write_udp_segment(void *control, uint16_t size) {
    memset(control, 0, CMSG_SPACE(sizeof(uint16_t)));
    struct cmsghdr *c = (struct cmsghdr *)control;
    c->cmsg_level = 17; /* SOL_UDP */
    c->cmsg_type = 103; /* UDP_SEGMENT */
    c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
    memcpy(CMSG_DATA(c), &size, sizeof size);
}

/* The segment size a message's UDP_SEGMENT control message asks for, or 0 when it has none. */
static inline int signd_udp_segment_of(const struct msghdr *m) {
    for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR((struct msghdr *)m, c)) {
        if (c->cmsg_level == 17 && c->cmsg_type == 103) {
            uint16_t size;
            memcpy(&size, CMSG_DATA(c), sizeof size);
            return size;
        }
    }
    return 0;
}
