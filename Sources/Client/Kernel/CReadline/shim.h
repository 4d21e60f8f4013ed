// GNU readline for deck's REPL (Debian: libreadline-dev). Swift 6 cannot touch readline's
// mutable globals directly (they are not concurrency-safe), so these small accessors do.
#ifndef DECK_CREADLINE_SHIM_H
#define DECK_CREADLINE_SHIM_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

typedef char **(*deck_completion_function)(const char *text, int start, int end);

// Ctrl-C: deck's SIGINT handler only writes a byte to a pipe (async-signal-safe). A watcher
// thread reads it and decides, under a lock, whether it ends the prompt readline shows or
// cancels the running command; a prompt is ended through a second pipe that deck's getc
// function polls next to the terminal, so no wake-up depends on which thread got the signal.

static inline void deck_rl_set_getc(rl_getc_func_t *getc_function) { rl_getc_function = getc_function; }

/// Installs the SIGINT handler (SA_RESTART: other reads are not disturbed; getc uses poll).
static inline void deck_install_sigint(void (*handler)(int)) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  action.sa_handler = handler;
  sigaction(SIGINT, &action, NULL);
}

static inline void deck_rl_configure(const char *name, deck_completion_function complete) {
  rl_readline_name = name;
  rl_attempted_completion_function = complete;
  rl_catch_signals = 0;          // deck installs its own SIGINT handler
  rl_catch_sigwinch = 1;
  rl_completer_quote_characters = "\"'";
  rl_completer_word_break_characters = " \t\n";
}

/// Called from the completion function: no file name fallback, and whether to add a space.
static inline void deck_rl_completion_flags(int suppress_append) {
  rl_attempted_completion_over = 1;
  rl_completion_suppress_append = suppress_append;
}

/// Which characters end a word for completion (" \t\n" in the REPL; "" to complete the whole line).
static inline void deck_rl_set_word_breaks(const char *characters) {
  rl_completer_word_break_characters = characters;
}

static inline int deck_rl_completion_quote_character(void) { return rl_completion_quote_character; }

/// The line being edited up to the cursor (a copy the caller frees).
static inline char *deck_rl_line_to_point(void) {
  if (rl_line_buffer == NULL) return strdup("");
  return strndup(rl_line_buffer, (size_t)rl_point);
}

/// Leaves the terminal as readline found it (on SIGTERM and crash paths).
static inline void deck_rl_restore_terminal(void) {
  rl_free_line_state();
  rl_cleanup_after_signal();
}

/// Reads the terminal's size again (after a child, such as the REPL's `edit` editor, had it).
static inline void deck_rl_resize_terminal(void) { rl_resize_terminal(); }

static inline int deck_history_length(void) { return history_length; }

static inline const char *deck_history_line(int offset_from_end) {
  if (offset_from_end >= history_length) return NULL;
  HIST_ENTRY *entry = history_get(history_base + history_length - 1 - offset_from_end);
  return entry ? entry->line : NULL;
}

#endif
