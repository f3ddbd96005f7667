// libpng as a system library: its include directory comes from `pkg-config libpng`.
#include <png.h>
