/* A stand-in for rpi-rgb-led-matrix, built by SignMatrixTests with cc -shared: the calls
 * signd-matrix makes, with no GPIO. It writes what it is asked to the file named by
 * $STANDIN_RECORD, one line each:
 *   options rows=.. cols=.. ... (every option and runtime option as passed)
 *   frame W H <hex of the canvas, R G B rows top first>   (each led_matrix_swap_on_vsync)
 *   delete
 * and refuses the options (returns NULL) when $STANDIN_REFUSE is set, as the library does
 * for an unknown mapping. The canvas is cols x chain by rows x parallel. This is not a Pi:
 * no timing, no pixel mappers, no privileges dropped. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct RGBLedMatrixOptions {
  const char *hardware_mapping;
  int rows, cols, chain_length, parallel;
  int pwm_bits, pwm_lsb_nanoseconds, pwm_dither_bits, brightness;
  int scan_mode, row_address_type, multiplexing;
  bool disable_hardware_pulsing, show_refresh_rate, inverse_colors;
  const char *led_rgb_sequence, *pixel_mapper_config, *panel_type;
  int limit_refresh_rate_hz;
  bool disable_busy_waiting;
};

struct RGBLedRuntimeOptions {
  int gpio_slowdown, daemon, drop_privileges;
  bool do_gpio_init;
  const char *drop_priv_user, *drop_priv_group;
};

struct LedCanvas { int width, height; uint8_t *pixels; };
struct RGBLedMatrix { struct LedCanvas canvases[2]; int next; FILE *record; };

static const char *text(const char *s) { return s ? s : "(null)"; }

struct RGBLedMatrix *led_matrix_create_from_options_and_rt_options(
    struct RGBLedMatrixOptions *o, struct RGBLedRuntimeOptions *rt) {
  const char *path = getenv("STANDIN_RECORD");
  FILE *record = fopen(path ? path : "/dev/null", "a");
  if (!record) return NULL;
  setvbuf(record, NULL, _IOLBF, 0);
  fprintf(record,
          "options hardware_mapping=%s rows=%d cols=%d chain_length=%d parallel=%d pwm_bits=%d "
          "pwm_lsb_nanoseconds=%d pwm_dither_bits=%d brightness=%d scan_mode=%d row_address_type=%d "
          "multiplexing=%d disable_hardware_pulsing=%d show_refresh_rate=%d inverse_colors=%d "
          "led_rgb_sequence=%s pixel_mapper_config=%s panel_type=%s limit_refresh_rate_hz=%d "
          "gpio_slowdown=%d daemon=%d drop_privileges=%d do_gpio_init=%d drop_priv_user=%s drop_priv_group=%s\n",
          text(o->hardware_mapping), o->rows, o->cols, o->chain_length, o->parallel, o->pwm_bits,
          o->pwm_lsb_nanoseconds, o->pwm_dither_bits, o->brightness, o->scan_mode, o->row_address_type,
          o->multiplexing, o->disable_hardware_pulsing, o->show_refresh_rate, o->inverse_colors,
          text(o->led_rgb_sequence), text(o->pixel_mapper_config), text(o->panel_type), o->limit_refresh_rate_hz,
          rt->gpio_slowdown, rt->daemon, rt->drop_privileges, rt->do_gpio_init, text(rt->drop_priv_user),
          text(rt->drop_priv_group));
  if (getenv("STANDIN_REFUSE")) {
    fprintf(stderr, "standin: refusing the options, as an unknown --led-gpio-mapping would be\n");
    fclose(record);
    return NULL;
  }
  struct RGBLedMatrix *m = calloc(1, sizeof *m);
  m->record = record;
  for (int i = 0; i < 2; i++) {
    m->canvases[i].width = o->cols * o->chain_length;
    m->canvases[i].height = o->rows * o->parallel;
    m->canvases[i].pixels = calloc((size_t)m->canvases[i].width * m->canvases[i].height, 3);
  }
  return m;
}

struct LedCanvas *led_matrix_create_offscreen_canvas(struct RGBLedMatrix *m) { return &m->canvases[m->next++ % 2]; }

void led_canvas_get_size(const struct LedCanvas *c, int *width, int *height) {
  *width = c->width;
  *height = c->height;
}

void led_canvas_set_pixels(struct LedCanvas *c, int x, int y, int width, int height, void *colors) {
  const uint8_t *in = colors;
  for (int row = 0; row < height; row++)
    for (int col = 0; col < width; col++) {
      int cx = x + col, cy = y + row;
      if (cx < 0 || cy < 0 || cx >= c->width || cy >= c->height) continue;
      memcpy(c->pixels + ((size_t)cy * c->width + cx) * 3, in + ((size_t)row * width + col) * 3, 3);
    }
}

void led_canvas_clear(struct LedCanvas *c) { memset(c->pixels, 0, (size_t)c->width * c->height * 3); }

struct LedCanvas *led_matrix_swap_on_vsync(struct RGBLedMatrix *m, struct LedCanvas *c) {
  fprintf(m->record, "frame %d %d ", c->width, c->height);
  for (size_t i = 0; i < (size_t)c->width * c->height * 3; i++) fprintf(m->record, "%02x", c->pixels[i]);
  fputc('\n', m->record);
  return c == &m->canvases[0] ? &m->canvases[1] : &m->canvases[0];
}

void led_matrix_delete(struct RGBLedMatrix *m) {
  fprintf(m->record, "delete\n");
  fclose(m->record);
  for (int i = 0; i < 2; i++) free(m->canvases[i].pixels);
  free(m);
}
