// libjq for deck's --jq (Debian: libjq-dev). jq_state is not thread-safe: deck makes one per
// filter and uses it under a lock.
#ifndef DECK_CJQ_SHIM_H
#define DECK_CJQ_SHIM_H

#include <jq.h>
#include <jv.h>

#endif
