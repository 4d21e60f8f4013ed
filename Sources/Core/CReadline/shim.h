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

// Ctrl-C while readline waits for a key: deck's SIGINT handler (in Swift) sets a flag and, when
// the signal landed on another thread, wakes the thread blocked in readline's read(2) with
// DECK_WAKE_SIGNAL, whose handler does nothing. The read returns EINTR, and deck's getc
// function empties the line and ends it in normal context, so readline returns "".
#define DECK_WAKE_SIGNAL SIGUSR2

static void deck_wake_handler(int signal_number) { (void)signal_number; }

/// Lets DECK_WAKE_SIGNAL reach the calling thread (libdispatch threads block signals) and
/// returns the previous mask, for deck_restore_signal_mask.
static inline sigset_t deck_unblock_wake_signal(void) {
  sigset_t wake, previous;
  sigemptyset(&wake);
  sigaddset(&wake, DECK_WAKE_SIGNAL);
  pthread_sigmask(SIG_UNBLOCK, &wake, &previous);
  return previous;
}

static inline void deck_restore_signal_mask(sigset_t mask) { pthread_sigmask(SIG_SETMASK, &mask, NULL); }

static inline void deck_rl_set_getc(rl_getc_func_t *getc_function) { rl_getc_function = getc_function; }

/// Installs the SIGINT handler and the wake-up handler, without SA_RESTART, so that Ctrl-C
/// interrupts a blocked read.
static inline void deck_install_sigint(void (*handler)(int)) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  action.sa_handler = handler;
  sigaction(SIGINT, &action, NULL);
  action.sa_handler = deck_wake_handler;
  sigaction(DECK_WAKE_SIGNAL, &action, NULL);
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

static inline int deck_history_length(void) { return history_length; }

static inline const char *deck_history_line(int offset_from_end) {
  if (offset_from_end >= history_length) return NULL;
  HIST_ENTRY *entry = history_get(history_base + history_length - 1 - offset_from_end);
  return entry ? entry->line : NULL;
}

#endif
