/*
 * The combined example (configs/examples/combined.toml) drawn with cairo, as fast as cairo
 * draws it: the peer signd's renderer is measured against (tools/bench-cairo).
 *
 * Written for speed the way a careful cairo program would be: everything static (the radial
 * glow and the rounded gradient border) is drawn once into one surface that each frame
 * starts from; the marquee's text is laid out once and kept as 16 alpha strips shifted by
 * 1/16 pixel (cairo places bitmap glyphs on whole pixels), its edge fade as an alpha
 * surface; the shimmer's text as an alpha surface at its place; surfaces are made once and
 * reused. Per frame: the static surface, the marquee's strips through a scratch surface and
 * the fade, the shimmer's gradient through its text, and the frame written out as RGB888
 * (what signd's outputs take). Positions are rounded to 1/16 pixel, which signd does not do.
 *
 *   cairo-combined WIDTH HEIGHT --bench [SECONDS]   median ns a frame over 1000-frame runs
 *   cairo-combined WIDTH HEIGHT --rgb FILE --frames N [--fps F]   frames k / F, RGB888
 *   --bench-damage, --rgb-damage: the same, drawing again and writing out only the marquee's
 *   band and the shimmer's text (the rest of the frame is kept from the one before), as
 *   signd does with its damage.
 *   cairo-combined WIDTH HEIGHT --png FILE --at T    one frame
 *
 * Build: cc -O2 combined.c $(pkg-config --cflags --libs cairo cairo-ft freetype2) -lm
 */
#include <cairo-ft.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PHASES 16

static const char *font_file = "/usr/share/fonts/X11/misc/6x10.pcf.gz";
static const char *marquee_text = "Now Playing: signd on a 128x32 board";
static const char *shimmer_text = "OPEN 24/7";

struct scene {
    int width, height;
    cairo_surface_t *target;  /* the frame being drawn, ARGB32 */
    cairo_t *cr;
    cairo_surface_t *still;   /* glow and border, drawn once */
    cairo_surface_t *strips[PHASES]; /* the marquee text, A8, shifted by k/16 px */
    int strip_width;          /* text width in pixels */
    cairo_surface_t *band;    /* scratch for the marquee's band, ARGB32 */
    cairo_t *band_cr;
    cairo_surface_t *fade;    /* the band's edge fade, A8 */
    cairo_surface_t *shine;   /* the shimmer text, A8, board-sized rows 15..31 */
    uint8_t *rgb;             /* the frame as RGB888 */
};

/* Core Animation's easeInEaseOut, (0.42, 0, 0.58, 1), solved for x by Newton and bisection. */
static double ease_in_ease_out(double x) {
    const double x1 = 0.42, y1 = 0, x2 = 0.58, y2 = 1;
    double t = x;
    for (int i = 0; i < 8; i++) {
        double bx = 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t - x;
        double d = 3 * (1 - t) * (1 - t) * x1 + 6 * (1 - t) * t * (x2 - x1) + 3 * t * t * (1 - x2);
        if (fabs(bx) < 1e-9) break;
        if (fabs(d) < 1e-6) break;
        t -= bx / d;
    }
    double lo = 0, hi = 1;
    for (int i = 0; i < 30; i++) {
        double bx = 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t;
        if (fabs(bx - x) < 1e-9) break;
        if (bx < x) lo = t; else hi = t;
        t = (lo + hi) / 2;
    }
    return 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t;
}

static cairo_font_face_t *load_font(void) {
    static FT_Library library;
    FT_Face face;
    if (FT_Init_FreeType(&library) || FT_New_Face(library, font_file, 0, &face)) {
        fprintf(stderr, "cairo-combined: cannot load %s\n", font_file);
        exit(1);
    }
    return cairo_ft_font_face_create_for_ft_face(face, 0);
}

/* Draws `text` in opaque alpha into a new A8 surface `width` x 10 at x = `shift`. */
static cairo_surface_t *text_alpha(cairo_font_face_t *font, const char *text, int width, double shift) {
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, width, 10);
    cairo_t *cr = cairo_create(s);
    cairo_set_font_face(cr, font);
    cairo_set_font_size(cr, 10);
    cairo_font_options_t *o = cairo_font_options_create();
    cairo_font_options_set_antialias(o, CAIRO_ANTIALIAS_NONE);
    cairo_font_options_set_hint_metrics(o, CAIRO_HINT_METRICS_ON);
    cairo_set_font_options(cr, o);
    cairo_font_options_destroy(o);
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    if (shift == 0) {
        cairo_move_to(cr, 0, fe.ascent);
        cairo_show_text(cr, text);
    } else {
        /* A shifted copy, resampled (linear) from the unshifted one: glyphs land on pixels. */
        cairo_surface_t *base = text_alpha(font, text, width, 0);
        cairo_set_source_surface(cr, base, shift, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR);
        cairo_paint(cr);
        cairo_surface_destroy(base);
    }
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static void rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

static void setup(struct scene *s, int width, int height) {
    s->width = width;
    s->height = height;
    s->target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    s->cr = cairo_create(s->target);
    s->rgb = malloc((size_t)width * height * 3);

    /* The glow: radial, an ellipse about the centre reaching (1.0, 1.2) of the board. */
    s->still = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(s->still);
    cairo_pattern_t *glow = cairo_pattern_create_radial(0, 0, 0, 0, 0, 1);
    cairo_pattern_add_color_stop_rgb(glow, 0, 0x10 / 255.0, 0x20 / 255.0, 0x40 / 255.0);
    cairo_pattern_add_color_stop_rgb(glow, 1, 0, 0, 0);
    cairo_pattern_set_extend(glow, CAIRO_EXTEND_PAD);
    cairo_matrix_t m;
    cairo_matrix_init_scale(&m, 1 / (0.5 * width), 1 / (0.7 * height));
    cairo_matrix_translate(&m, -0.5 * width, -0.5 * height);
    cairo_pattern_set_matrix(glow, &m);
    cairo_set_source(cr, glow);
    cairo_paint(cr);
    cairo_pattern_destroy(glow);
    /* The border: a 1 px stroke centred on a rounded rectangle; its gradient runs from the
     * top left to the bottom right in the box's unit square, as Core Animation's does. */
    cairo_pattern_t *stroke = cairo_pattern_create_linear(0, 0, 1, 1);
    cairo_matrix_init_scale(&m, 1 / 100.0, 1 / 16.0);
    cairo_matrix_translate(&m, -14, -15);
    cairo_pattern_set_matrix(stroke, &m);
    cairo_pattern_add_color_stop_rgb(stroke, 0, 0, 0xc8 / 255.0, 1);
    cairo_pattern_add_color_stop_rgb(stroke, 1, 1, 0, 0xc8 / 255.0);
    rounded_rect(cr, 14, 15, 100, 16, 5);
    cairo_set_line_width(cr, 1);
    cairo_set_source(cr, stroke);
    cairo_stroke(cr);
    cairo_pattern_destroy(stroke);
    cairo_destroy(cr);
    cairo_surface_flush(s->still);

    cairo_font_face_t *font = load_font();
    s->strip_width = 6 * (int)strlen(marquee_text);
    for (int k = 0; k < PHASES; k++) {
        s->strips[k] = text_alpha(font, marquee_text, s->strip_width + 1, (double)k / PHASES);
    }
    /* The marquee's band is the top 14 rows; the fade is 12 px at each edge. */
    s->band = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, 14);
    s->band_cr = cairo_create(s->band);
    s->fade = cairo_image_surface_create(CAIRO_FORMAT_A8, width, 14);
    cairo_t *fc = cairo_create(s->fade);
    cairo_pattern_t *fade = cairo_pattern_create_linear(0, 0, width, 0);
    cairo_pattern_add_color_stop_rgba(fade, 0, 0, 0, 0, 0);
    cairo_pattern_add_color_stop_rgba(fade, 12.0 / width, 0, 0, 0, 1);
    cairo_pattern_add_color_stop_rgba(fade, 1 - 12.0 / width, 0, 0, 0, 1);
    cairo_pattern_add_color_stop_rgba(fade, 1, 0, 0, 0, 0);
    cairo_set_source(fc, fade);
    cairo_paint(fc);
    cairo_pattern_destroy(fade);
    cairo_destroy(fc);
    cairo_surface_flush(s->fade);
    /* The shimmer's text, centred in its 100 x 16 box at (14, 15). */
    int shine_width = 6 * (int)strlen(shimmer_text);
    s->shine = text_alpha(font, shimmer_text, shine_width, 0);
}

/* Rows y0..<y1, columns x0..<x1 of the target into s->rgb. */
static void write_rgb(struct scene *s, int y0, int y1, int x0, int x1) {
    const uint32_t *src = (const uint32_t *)cairo_image_surface_get_data(s->target);
    int stride = cairo_image_surface_get_stride(s->target) / 4;
    for (int y = y0; y < y1; y++) {
        const uint32_t *row = src + (size_t)y * stride;
        uint8_t *out = s->rgb + ((size_t)y * s->width + x0) * 3;
        for (int i = x0; i < x1; i++) {
            uint32_t px = row[i];
            out[0] = (uint8_t)(px >> 16);
            out[1] = (uint8_t)(px >> 8);
            out[2] = (uint8_t)px;
            out += 3;
        }
    }
}

static double mix(double a, double b, double f) { return a + (b - a) * f; }

/* The shimmer text's place. */
static int shine_x(void) { return 14 + (100 - 6 * (int)strlen(shimmer_text)) / 2; }
static const int shine_y = 18;

/* One frame at scene time t, into s->rgb. With `damage`, only what moves is drawn again and
 * written out (the marquee's band and the shimmer's text; the rest of s->rgb is kept from the
 * frame before, which must have been drawn by this function). */
static void draw(struct scene *s, double t, int damage) {
    cairo_t *cr = s->cr;
    int w = s->width;

    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_surface(cr, s->still, 0, 0);
    if (damage) {
        cairo_rectangle(cr, 0, 0, w, 14);
        cairo_rectangle(cr, shine_x(), shine_y, cairo_image_surface_get_width(s->shine), 10);
        cairo_fill(cr);
    } else {
        cairo_paint(cr);
    }
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);

    /* The marquee: colour keyframes (eased over 3 s), the strip from x = 12 leftwards at
     * 24 px/s, repeating after the text and a gap of a quarter of the width. */
    double u = ease_in_ease_out(fmod(t, 3) / 3);
    double c0[3] = {1, 0xb0 / 255.0, 0}, c1[3] = {1, 0x60 / 255.0, 0x40 / 255.0};
    double f = u < 0.5 ? u * 2 : (1 - u) * 2;
    double period = s->strip_width + (w / 4 > 1 ? w / 4 : 1);
    double x = 12 - fmod(24 * t, period);
    double whole = floor(x);
    int phase = (int)lround((x - whole) * PHASES);
    if (phase == PHASES) {
        phase = 0;
        whole += 1;
    }
    cairo_t *bc = s->band_cr;
    cairo_set_operator(bc, CAIRO_OPERATOR_CLEAR);
    cairo_paint(bc);
    cairo_set_operator(bc, CAIRO_OPERATOR_OVER);
    cairo_set_source_rgb(bc, mix(c0[0], c1[0], f), mix(c0[1], c1[1], f), mix(c0[2], c1[2], f));
    for (double at = whole; at < w; at += period) {
        if (at + s->strip_width + 1 <= 0) continue;
        cairo_mask_surface(bc, s->strips[phase], at, 2);
    }
    cairo_surface_flush(s->band);
    cairo_set_source_surface(cr, s->band, 0, 0);
    cairo_mask_surface(cr, s->fade, 0, 0);

    /* The shimmer: gray, white, gray with locations from (0, 0, .25) to (.75, 1, 1) over 2 s,
     * linear, across the 100 px box, through the text. */
    double p = fmod(t, 2) / 2;
    cairo_pattern_t *sweep = cairo_pattern_create_linear(14, 0, 114, 0);
    cairo_pattern_add_color_stop_rgb(sweep, 0.75 * p, 0.5, 0.5, 0.5);
    cairo_pattern_add_color_stop_rgb(sweep, p, 1, 1, 1);
    cairo_pattern_add_color_stop_rgb(sweep, 0.25 + 0.75 * p, 0.5, 0.5, 0.5);
    cairo_set_source(cr, sweep);
    cairo_mask_surface(cr, s->shine, shine_x(), shine_y);
    cairo_pattern_destroy(sweep);

    /* Out as RGB888 over black (the board is opaque: the glow covers it). */
    cairo_surface_flush(s->target);
    if (damage) {
        write_rgb(s, 0, 14, 0, w);
        write_rgb(s, shine_y, shine_y + 10, shine_x(), shine_x() + cairo_image_surface_get_width(s->shine));
    } else {
        write_rgb(s, 0, s->height, 0, w);
    }
    cairo_surface_mark_dirty(s->target);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: cairo-combined WIDTH HEIGHT (--bench[-damage] [SECONDS] | --rgb[-damage] FILE "
                        "--frames N [--fps F] | --png FILE --at T)\n");
        return 2;
    }
    struct scene s;
    setup(&s, atoi(argv[1]), atoi(argv[2]));
    int damage = strcmp(argv[3], "--bench-damage") == 0 || strcmp(argv[3], "--rgb-damage") == 0;
    if (damage) draw(&s, 0, 0); /* the frame the first damaged one builds on */
    if (strcmp(argv[3], "--bench") == 0 || strcmp(argv[3], "--bench-damage") == 0) {
        /* As signd's benchmark: 1000 frames an iteration at 60 fps steps, 10 warm-up
         * iterations, then iterations for SECONDS (default 2); the median per frame. */
        double seconds = argc > 4 ? atof(argv[4]) : 2;
        static uint64_t runs[100000];
        int n = 0;
        double t = 0;
        for (int i = 0; i < 10 * 1000; i++) draw(&s, t += 1.0 / 60, damage);
        uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);
        while (n < 100000 && now_ns() < end) {
            uint64_t start = now_ns();
            for (int i = 0; i < 1000; i++) draw(&s, t += 1.0 / 60, damage);
            runs[n++] = now_ns() - start;
        }
        qsort(runs, n, sizeof runs[0], compare);
        printf("%.1f\n", runs[n / 2] / 1000.0);
        return 0;
    }
    if ((strcmp(argv[3], "--rgb") == 0 || strcmp(argv[3], "--rgb-damage") == 0) && argc >= 7) {
        int frames = atoi(argv[6]);
        double fps = argc >= 9 ? atof(argv[8]) : 60;
        FILE *out = fopen(argv[4], "wb");
        if (!out) return 1;
        for (int k = 0; k < frames; k++) {
            draw(&s, k / fps, damage);
            fwrite(s.rgb, 3, (size_t)s.width * s.height, out);
        }
        fclose(out);
        return 0;
    }
    if (strcmp(argv[3], "--png") == 0 && argc >= 7) {
        draw(&s, atof(argv[6]), 0);
        return cairo_surface_write_to_png(s.target, argv[4]) == CAIRO_STATUS_SUCCESS ? 0 : 1;
    }
    fprintf(stderr, "cairo-combined: unknown arguments\n");
    return 2;
}
