#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
#include "image_codecs.h"

int sic_jpeg_lib_version(void) { return JPEG_LIB_VERSION; }
