/*
 * A frame to DDP datagrams written plainly in C: the peer signd's LED pipeline is measured
 * against (tools/bench-ledpeer). The same work as signd's `network frame ddp WxH`
 * benchmark: a white WIDTH x HEIGHT RGB888 frame through a pixel map (one panel, rows,
 * LED k shows pixel k), gamma 2.2 to 16-bit linear levels from tables, temporal dithering
 * with an 8-bit carry per channel, and DDP packets of 480 pixels (10-byte header, push on
 * the last) written into one reused packet buffer and handed to a function that counts
 * their bytes, as signd's benchmark hands them to a closure.
 *
 * The tables are what fcserver-style code keeps: per channel byte, the 16-bit level in
 * 1/256 steps of the output byte (65535 is 255 * 256), so a channel is a look-up, an add to
 * the carry, and the high byte out.
 *
 *   led-ddp WIDTH HEIGHT --bench [SECONDS]   median ns a frame over 1000-frame runs
 *   led-ddp WIDTH HEIGHT --bench-cpu [SECONDS]   the same in the thread's CPU time
 *   led-ddp WIDTH HEIGHT --check FRAMES      the bytes of FRAMES frames' packets, to stdout
 *
 * Build: cc -O2 ddp.c -lm
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HEADER 10
#define MAX_DATA 1440

struct pipeline {
    int leds;
    int32_t *source;    /* per LED, its pixel; -1 black */
    uint16_t steps[768]; /* red, green, blue: level in 1/256 steps of the byte */
    uint8_t *carry;     /* 3 per LED */
    uint8_t *out;       /* 3 per LED */
    uint8_t packet[HEADER + MAX_DATA];
    uint8_t sequence;
};

static void setup(struct pipeline *p, int width, int height) {
    p->leds = width * height;
    p->source = malloc(sizeof(int32_t) * p->leds);
    for (int k = 0; k < p->leds; k++) p->source[k] = k;
    for (int c = 0; c < 3; c++) {
        for (int v = 0; v < 256; v++) {
            uint32_t level = (uint32_t)lround(fmin(fmax(pow(v / 255.0, 2.2) * 65535, 0), 65535));
            p->steps[c * 256 + v] = (uint16_t)((level * 65280 + 32767) / 65535);
        }
    }
    p->carry = calloc(3, p->leds);
    p->out = malloc(3 * p->leds);
    p->sequence = 0;
}

static void colour(struct pipeline *p, const uint8_t *pixels, int pixel_count) {
    const uint16_t *r = p->steps, *g = p->steps + 256, *b = p->steps + 512;
    uint8_t *c = p->carry, *o = p->out;
    for (int k = 0; k < p->leds; k++, c += 3, o += 3) {
        int32_t i = p->source[k];
        unsigned rv = 0, gv = 0, bv = 0;
        if ((uint32_t)i < (uint32_t)pixel_count) {
            const uint8_t *px = pixels + 3 * i;
            rv = px[0], gv = px[1], bv = px[2];
        }
        uint16_t sr = r[rv] + c[0], sg = g[gv] + c[1], sb = b[bv] + c[2];
        c[0] = (uint8_t)sr, c[1] = (uint8_t)sg, c[2] = (uint8_t)sb;
        o[0] = sr >> 8, o[1] = sg >> 8, o[2] = sb >> 8;
    }
}

static void frame_packets(struct pipeline *p, void (*emit)(const uint8_t *, int, void *), void *context) {
    int bytes = 3 * p->leds;
    p->sequence = p->sequence % 15 + 1;
    for (int start = 0; start < bytes || start == 0; start += MAX_DATA) {
        int count = bytes - start < MAX_DATA ? bytes - start : MAX_DATA;
        uint8_t *h = p->packet;
        h[0] = 0x40 | (start + count >= bytes ? 0x01 : 0);
        h[1] = p->sequence & 0x0f;
        h[2] = 0x0B;
        h[3] = 1;
        h[4] = start >> 24, h[5] = start >> 16, h[6] = start >> 8, h[7] = start;
        h[8] = count >> 8, h[9] = count;
        memcpy(h + HEADER, p->out + start, count);
        emit(p->packet, HEADER + count, context);
        if (bytes == 0) break;
    }
}

static void count_bytes(const uint8_t *datagram, int length, void *context) {
    (void)datagram;
    *(long *)context += length;
}

static void write_bytes(const uint8_t *datagram, int length, void *context) {
    (void)context;
    fwrite(datagram, 1, length, stdout);
}

/* The clock runs are timed with: CLOCK_THREAD_CPUTIME_ID (--bench-cpu) counts only the time
 * the thread ran, as signd's benchmarks' "Thread CPU (ns)" does. */
static clockid_t run_clock = CLOCK_MONOTONIC;

static double now(void) {
    struct timespec ts;
    clock_gettime(run_clock, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: led-ddp WIDTH HEIGHT (--bench [SECONDS] | --check FRAMES)\n");
        return 2;
    }
    int width = atoi(argv[1]), height = atoi(argv[2]);
    struct pipeline p;
    setup(&p, width, height);
    uint8_t *pixels = malloc(3 * width * height);
    memset(pixels, 255, 3 * width * height);
    if (strcmp(argv[3], "--check") == 0) {
        int frames = argc > 4 ? atoi(argv[4]) : 1;
        for (int f = 0; f < frames; f++) {
            colour(&p, pixels, width * height);
            frame_packets(&p, write_bytes, NULL);
        }
        return 0;
    }
    /* As signd's benchmark: 1000 frames an iteration, 10 warm-up iterations, then
     * iterations for SECONDS (default 2); the median per frame. */
    if (strcmp(argv[3], "--bench-cpu") == 0) run_clock = CLOCK_THREAD_CPUTIME_ID;
    double seconds = argc > 4 ? atof(argv[4]) : 2;
    long total = 0;
    static double runs[100000];
    int n = 0;
    for (int i = 0; i < 10; i++)
        for (int f = 0; f < 1000; f++) {
            colour(&p, pixels, width * height);
            frame_packets(&p, count_bytes, &total);
        }
    /* The budget is wall-clock time whichever clock times the runs. */
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    double end = start.tv_sec + start.tv_nsec / 1e9 + seconds;
    for (;;) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (n >= 100000 || (n >= 5 && t.tv_sec + t.tv_nsec / 1e9 >= end)) break;
        double t0 = now();
        for (int f = 0; f < 1000; f++) {
            colour(&p, pixels, width * height);
            frame_packets(&p, count_bytes, &total);
        }
        runs[n++] = (now() - t0) * 1e9 / 1000;
    }
    qsort(runs, n, sizeof runs[0], compare);
    printf("%.1f\n", runs[n / 2]);
    fprintf(stderr, "led-ddp: %ld bytes\n", total);
    return 0;
}
