/* The parts of rpi-rgb-led-matrix's C API (led-matrix-c.h) signd-matrix calls, declared
 * from its documented layout so that the library is found with dlopen at run time and
 * nothing links against it. Field order and types follow that header exactly. */
#include <stdbool.h>
#include <stdint.h>

struct RGBLedMatrix;
struct LedCanvas;

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

typedef struct RGBLedMatrix *(*signd_led_matrix_create_fn)(struct RGBLedMatrixOptions *, struct RGBLedRuntimeOptions *);
typedef void (*signd_led_matrix_delete_fn)(struct RGBLedMatrix *);
typedef struct LedCanvas *(*signd_led_matrix_create_offscreen_canvas_fn)(struct RGBLedMatrix *);
typedef struct LedCanvas *(*signd_led_matrix_swap_on_vsync_fn)(struct RGBLedMatrix *, struct LedCanvas *);
typedef void (*signd_led_canvas_get_size_fn)(const struct LedCanvas *, int *, int *);
/* The pixels are 3-byte r, g, b triples (the library's struct Color), rows top first. */
typedef void (*signd_led_canvas_set_pixels_fn)(struct LedCanvas *, int, int, int, int, void *);
typedef void (*signd_led_canvas_clear_fn)(struct LedCanvas *);
