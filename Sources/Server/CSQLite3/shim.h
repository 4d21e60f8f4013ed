// The system's SQLite for the sandbox's SQLite engine (Debian: libsqlite3-dev, built with FTS5).
#ifndef DECK_CSQLITE3_SHIM_H
#define DECK_CSQLITE3_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro Swift cannot import: SQLite copies a text or blob bound with it.
static inline sqlite3_destructor_type deck_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
