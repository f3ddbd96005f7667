#ifndef STICKERS_IMAGE_CODECS_H
#define STICKERS_IMAGE_CODECS_H
#include <stddef.h>
#include <stdint.h>

/// Placeholder until the codec wrappers land: returns the libjpeg version the target was built against.
int sic_jpeg_lib_version(void);

#endif
