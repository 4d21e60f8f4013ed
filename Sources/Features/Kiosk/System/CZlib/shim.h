// zlib (Debian: zlib1g-dev): deflate and CRC-32 for the kiosk's QR code PNG.
#ifndef DECK_CZLIB_SHIM_H
#define DECK_CZLIB_SHIM_H
#include <zlib.h>
#endif
