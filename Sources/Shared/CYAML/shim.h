// libyaml, the YAML 1.1 parser PyYAML and Ruby's Psych use (Debian: libyaml-dev). DeckYAML reads
// its events and builds the tree itself; nothing else in deck calls it.
#ifndef DECK_CYAML_SHIM_H
#define DECK_CYAML_SHIM_H

#include <yaml.h>

#endif
