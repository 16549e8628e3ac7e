#include <webp/decode.h>
#include <webp/demux.h>

/* The version-checking constructors are inline functions over macros Swift does not import. */
static inline int signd_webp_anim_decoder_options_init(WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderOptionsInit(options);
}
static inline WebPAnimDecoder *signd_webp_anim_decoder_new(const WebPData *data,
                                                           const WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderNew(data, options);
}
static inline WebPDemuxer *signd_webp_demux(const WebPData *data) { return WebPDemux(data); }
