// libqrencode (Debian: libqrencode-dev) for the kiosk's handoff QR code.
#ifndef DECK_CQRENCODE_SHIM_H
#define DECK_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
