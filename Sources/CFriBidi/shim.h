#include <fribidi.h>

/* Swift cannot import these macros, so they are restated as functions. */
static inline FriBidiParType signd_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType signd_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiParType signd_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
