import ArgumentParser

/// The completion scripts deck prints: swift-argument-parser's, with live values (brokerage
/// names, accounts: anything a `---completion` callback answers) matched the way the REPL
/// matches them, whatever the shell.
///
/// - bash: the generated script filters callback values with `compgen -W … -- "$cur"`, and
///   bash's `$cur` keeps the backslashes of an escaped word (`Keller\ Williams\ R`), so a
///   multi-word value stopped completing after its first space; and compgen ignores no case.
///   Callback values go through `__deck_add_live_completions` instead: it matches against the
///   word as bash reads it (quotes and backslashes removed), ignoring case, and bash's
///   `-o filenames` quotes what it inserts the way the word was begun.
/// - zsh: `compadd` matches case-sensitively; callback values get a case-folding matcher, and
///   the cursor's offset in a quoted word is counted right (``zshLiveCursorIndex``).
/// - fish matches case-insensitively and unquotes tokens itself.
///
/// The callback's side (the word a provider sees, unquoted) is ``CompletionWord``. Each edit
/// must find the text it replaces: a new argument-parser that changes it fails the tests
/// (`CompletionScriptTests`) instead of silently dropping the fix.
public enum CompletionScripts {
  public static func adjusted(_ script: String, for shell: CompletionShell) -> String {
    switch shell {
    case .bash: bash(script)
    case .zsh: zsh(script)
    default: script
    }
  }

  static let bashCallback = #"__deck_add_completions -W "$(__deck_custom_complete "#
  static let bashLiveCallback = #"__deck_add_live_completions "$(__deck_custom_complete "#

  static let bashLiveFunction = #"""
    # deck: values from a ---completion callback, matched against the word as bash reads it
    # (quotes and backslashes removed) and ignoring case, as deck's REPL matches them.
    __deck_add_live_completions() {
        local typed="" character
        local -i i
        for ((i = 0; i < ${#cur}; i++)); do
            character="${cur:i:1}"
            case "${character}" in
            \\) ((i++)); typed+="${cur:i:1}" ;;
            \"|\') ;;
            *) typed+="${character}" ;;
            esac
        done
        typed="${typed,,}"
        local value
        while IFS='' read -r value; do
            [[ -n "${value}" && "${value,,}" == "${typed}"* ]] && COMPREPLY+=("${value}")
        done <<< "${1}"
    }


    """#

  static let bashRegistration = "complete -o filenames -F _deck deck"
  static let bashJoinedRegistration = "complete -o filenames -F __deck_words_joined deck"

  /// bash splits words at COMP_WORDBREAKS, which holds `=` and `:`: in
  /// `primaryPosition=Po`, the generated functions saw the word `Po` and matched it against key
  /// names. `__deck_words_joined` joins such words again before deck completes (what
  /// bash-completion's `_get_comp_words_by_ref -n =:` does), then takes off each completion the
  /// part before the word break that bash keeps on the line (as `__ltrim_colon_completions`),
  /// and writes `key=` as typed (no `\=`, no space after it).
  static let bashJoinFunction = #"""
    # deck: `key=value` and `a:b` are one word, as bash-completion's `_get_comp_words_by_ref -n =:`
    # makes them (bash splits words at the `=` and `:` of COMP_WORDBREAKS).
    __deck_words_joined() {
        local line="${COMP_LINE:0:COMP_POINT}" word
        local -a words=()
        local -i i cword=0
        for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
            word="${COMP_WORDS[i]}"
            if ((i > 0 && i <= COMP_CWORD)) && [[ "${line}" != [[:space:]]* ]] &&
                [[ "${word}" == [=:]* || "${words[${#words[@]} - 1]}" == *[=:] ]]; then
                words[${#words[@]} - 1]+="${word}"
            else
                words+=("${word}")
            fi
            while [[ "${line}" == [[:space:]]* ]]; do line="${line:1}"; done
            line="${line#"${word}"}"
            ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
        done
        local -a COMP_WORDS=("${words[@]}")
        local COMP_CWORD="${cword}"
        local joined="${COMP_WORDS[COMP_CWORD]}"
        _deck "${1}" "${joined}" "${COMP_WORDS[COMP_CWORD - 1]}"
        local kept="${joined%"${joined##*[=:]}"}"
        local -i keys=0
        for ((i = 0; i < ${#COMPREPLY[@]}; i++)); do
            [[ -n "${kept}" ]] && COMPREPLY[i]="${COMPREPLY[i]#"${kept}"}"
            [[ "${COMPREPLY[i]}" == *= ]] && keys+=1
        done
        if ((keys > 0 && keys == ${#COMPREPLY[@]})); then
            compopt +o filenames -o nospace 2>/dev/null
        fi
    }


    """#

  static func bash(_ script: String) -> String {
    guard script.contains(bashCallback), script.contains(bashRegistration),
      let function = script.firstRange(of: "\n_deck() {")
    else { return script }
    var adjusted = script
    adjusted.insert(contentsOf: bashLiveFunction + bashJoinFunction, at: adjusted.index(after: function.lowerBound))
    return adjusted.replacing(bashCallback, with: bashLiveCallback)
      .replacing(bashRegistration, with: bashJoinedRegistration)
  }

  static let zshCallback = #"__deck_complete "${completions[@]:0:-1}""#
  static let zshLiveCallback = #"__deck_complete_live "${completions[@]:0:-1}""#

  static let zshLiveFunction = #"""
    # deck: values from a ---completion callback, matched ignoring case as deck's REPL matches
    # them (a colon in a value is escaped: _describe reads it as the start of a description).
    __deck_complete_live() {
        local -a non_empty_completions=("${@:#(|:*)}")
        non_empty_completions=("${(@)non_empty_completions//:/\\:}")
        local -ar empty_completions=("${(M)@:#(|:*)}")
        _describe -V '' non_empty_completions -M 'm:{[:lower:][:upper:]}={[:upper:][:lower:]}' \
            -- empty_completions -P $'\'\''
    }


    """#

  /// The cursor's offset in the word being completed. The generated one splits `LBUFFER` with
  /// `(z)`, which in a quoted word (`"Keller Wi`) gives its last space-separated part, so the
  /// callback saw the prefix `"` and offered nothing. zsh's own pieces of the word before the
  /// cursor (quote, ignored prefix, prefix) add up to it in every quoting.
  static let zshCursorIndex = #"""
    __deck_cursor_index_in_current_word() {
        if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
            printf 0
        else
            printf %s "${#${(z)LBUFFER}[-1]}"
        fi
    }
    """#

  static let zshLiveCursorIndex = #"""
    __deck_cursor_index_in_current_word() {
        printf %s "$((${#QIPREFIX} + ${#IPREFIX} + ${#PREFIX}))"
    }
    """#

  static func zsh(_ script: String) -> String {
    guard script.contains(zshCallback), script.contains(zshCursorIndex),
      let function = script.firstRange(of: "__deck_custom_complete() {")
    else { return script }
    var adjusted = script
    adjusted.insert(contentsOf: zshLiveFunction, at: function.lowerBound)
    return adjusted.replacing(zshCallback, with: zshLiveCallback)
      .replacing(zshCursorIndex, with: zshLiveCursorIndex)
  }
}
