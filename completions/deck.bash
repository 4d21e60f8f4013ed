#!/bin/bash

__deck_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__deck_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__deck_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__deck_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

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

_deck() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    env|auth|brokerage|workspace|kiosk|mbti|prefs|sandbox|repl|run|completion|plugins|doctor|contract|api|qa|help)
        # Offer subcommand argument completions
        "_deck_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'env auth brokerage workspace kiosk mbti prefs sandbox repl run completion plugins doctor contract api qa help' -- "${cur}"))
        ;;
    esac
}

_deck_env() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|show|use|add|set|remove)
        # Offer subcommand argument completions
        "_deck_env_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list show use add set remove' -- "${cur}"))
        ;;
    esac
}

_deck_env_list() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion env list -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_env_show() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion env show -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion env show -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_env_use() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion env use -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion env use -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_env_add() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --from --sandbox)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion env add -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--from')
        __deck_add_live_completions "$(__deck_custom_complete ---completion env add -- --from "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--sandbox')
        return
        ;;
    esac
}

_deck_env_set() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --all)
    __deck_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion env set -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--all')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion env set -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    *)
        __deck_add_completions -W 'auth='$'\n''flyr='$'\n''kiosk='$'\n''nudge='$'\n''recruiting='$'\n''geocoder='$'\n''allow-insecure-http='$'\n''sandbox='$'\n''production='$'\n''sandbox-admin-token='
        return
        ;;
    esac
}

_deck_env_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion env remove -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion env remove -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_auth() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    signup|login|status|switch|logout|token)
        # Offer subcommand argument completions
        "_deck_auth_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'signup login status switch logout token' -- "${cur}"))
        ;;
    esac
}

_deck_auth_signup() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --password-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --email --role)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion auth signup -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--email')
        return
        ;;
    '--role')
        __deck_add_completions -W 'athlete'$'\n''parent'
        return
        ;;
    esac
}

_deck_auth_login() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --password-stdin --with-token --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --email)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion auth login -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--email')
        return
        ;;
    esac
}

_deck_auth_status() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --offline --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion auth status -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_auth_switch() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion auth switch -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion auth switch -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_auth_logout() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion auth logout -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion auth logout -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_auth_token() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion auth token -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_brokerage() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    search)
        # Offer subcommand argument completions
        "_deck_brokerage_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'search' -- "${cur}"))
        ;;
    esac
}

_deck_brokerage_search() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --limit)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion brokerage search -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion brokerage search -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_workspace() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    access|route|onboard|invite|subscribe)
        # Offer subcommand argument completions
        "_deck_workspace_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'access route onboard invite subscribe' -- "${cur}"))
        ;;
    esac
}

_deck_workspace_access() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion workspace access -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_workspace_route() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --invite)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion workspace route -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--invite')
        return
        ;;
    esac
}

_deck_workspace_onboard() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=(--invite)
    non_repeating_options=(--env --format --jq --timeout --first-name --last-name --workspace-name --industry --brokerage --brokerage-id --use-case --referral-code)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion workspace onboard -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--first-name')
        return
        ;;
    '--last-name')
        return
        ;;
    '--workspace-name')
        return
        ;;
    '--industry')
        __deck_add_completions -W 'Real Estate'$'\n''Logistics'$'\n''Sales'$'\n''Pest Control'$'\n''HVAC'$'\n''Insurance'$'\n''Solar'$'\n''Other'
        return
        ;;
    '--brokerage')
        __deck_add_live_completions "$(__deck_custom_complete ---completion workspace onboard -- --brokerage "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--brokerage-id')
        return
        ;;
    '--use-case')
        __deck_add_completions -W 'solo'$'\n''team'
        return
        ;;
    '--invite')
        return
        ;;
    '--referral-code')
        return
        ;;
    esac
}

_deck_workspace_invite() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    validate|accept)
        # Offer subcommand argument completions
        "_deck_workspace_invite_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'validate accept' -- "${cur}"))
        ;;
    esac
}

_deck_workspace_invite_validate() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion workspace invite validate -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_workspace_invite_accept() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion workspace invite accept -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_workspace_subscribe() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --wait --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --plan --currency --price-id --wait-timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion workspace subscribe -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--plan')
        __deck_add_completions -W 'annual'$'\n''monthly'
        return
        ;;
    '--currency')
        __deck_add_completions -W 'USD'$'\n''CAD'
        return
        ;;
    '--price-id')
        return
        ;;
    '--wait-timeout')
        return
        ;;
    esac
}

_deck_kiosk() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    pair|status|next|rate|approve|decline|done|cancel|unpair|run)
        # Offer subcommand argument completions
        "_deck_kiosk_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'pair status next rate approve decline done cancel unpair run' -- "${cur}"))
        ;;
    esac
}

_deck_kiosk_pair() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk pair -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_kiosk_status() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk status -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_kiosk_next() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --wait --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --poll-interval)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk next -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--poll-interval')
        return
        ;;
    esac
}

_deck_kiosk_rate() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk rate -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_kiosk_approve() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --qr-png)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk approve -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--qr-png')
        __deck_add_completions -o plusdirs -fX '!*.@(png)'
        return
        ;;
    esac
}

_deck_kiosk_decline() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk decline -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_kiosk_done() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk done -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_kiosk_cancel() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk cancel -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_kiosk_unpair() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk unpair -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_kiosk_run() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --approve --decline --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --store --sessions --rating --poll-interval --handoff-timeout --thank-you --qr-png)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion kiosk run -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--store')
        return
        ;;
    '--sessions')
        return
        ;;
    '--rating')
        return
        ;;
    '--poll-interval')
        return
        ;;
    '--handoff-timeout')
        return
        ;;
    '--thank-you')
        return
        ;;
    '--qr-png')
        __deck_add_completions -o plusdirs -fX '!*.@(png)'
        return
        ;;
    esac
}

_deck_mbti() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    questions|quiz|submit|result|events|user-id)
        # Offer subcommand argument completions
        "_deck_mbti_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'questions quiz submit result events user-id' -- "${cur}"))
        ;;
    esac
}

_deck_mbti_questions() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion mbti questions -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_mbti_quiz() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --plain --resume --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion mbti quiz -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_mbti_submit() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --answers)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion mbti submit -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--answers')
        __deck_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    esac
}

_deck_mbti_result() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion mbti result -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_mbti_events() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --send --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion mbti events -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_mbti_user-id() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --reset --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion mbti user-id -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_prefs() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    get|set|edit|reset|delete|history|school|dashboard|location|export|import|photo)
        # Offer subcommand argument completions
        "_deck_prefs_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'get set edit reset delete history school dashboard location export import photo' -- "${cur}"))
        ;;
    esac
}

_deck_prefs_get() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --no-cache --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs get -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'player'$'\n''school'$'\n''notifications'$'\n''dashboard'$'\n''location'
        return
        ;;
    esac
}

_deck_prefs_set() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs set -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'player'$'\n''school'$'\n''notifications'$'\n''dashboard'$'\n''location'
        return
        ;;
    *)
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs set -- positional@1 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_prefs_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs edit -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'player'$'\n''school'$'\n''notifications'$'\n''dashboard'$'\n''location'
        return
        ;;
    esac
}

_deck_prefs_reset() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs reset -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'player'$'\n''school'$'\n''notifications'$'\n''dashboard'$'\n''location'
        return
        ;;
    esac
}

_deck_prefs_delete() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace -y --yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs delete -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'player'$'\n''school'$'\n''notifications'$'\n''dashboard'$'\n''location'
        return
        ;;
    esac
}

_deck_prefs_history() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --limit)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs history -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'player'$'\n''school'$'\n''notifications'$'\n''dashboard'$'\n''location'
        return
        ;;
    esac
}

_deck_prefs_school() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|template|add|move|remove)
        # Offer subcommand argument completions
        "_deck_prefs_school_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list template add move remove' -- "${cur}"))
        ;;
    esac
}

_deck_prefs_school_list() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --no-cache --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs school list -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_prefs_school_template() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace -y --yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs school template -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'd1-power-conference'$'\n''academic-excellence'$'\n''close-to-home'$'\n''best-fit'
        return
        ;;
    esac
}

_deck_prefs_school_add() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --dealbreaker --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs school add -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'max_distance_miles'$'\n''preferred_regions'$'\n''preferred_states'$'\n''min_academic_rating'$'\n''school_size'$'\n''division'$'\n''conference_type'$'\n''scholarship_required'$'\n''must_have'$'\n''nice_to_have'
        return
        ;;
    2)
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs school add -- positional@1 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_prefs_school_move() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs school move -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_prefs_school_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs school remove -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_prefs_dashboard() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|hide)
        # Offer subcommand argument completions
        "_deck_prefs_dashboard_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show hide' -- "${cur}"))
        ;;
    esac
}

_deck_prefs_dashboard_show() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=(--all --none)
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs dashboard show -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--all')
        __deck_add_completions -W 'statsCards'$'\n''widgets'
        return
        ;;
    '--none')
        __deck_add_completions -W 'statsCards'$'\n''widgets'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __deck_add_completions -W 'coaches'$'\n''schools'$'\n''interactions'$'\n''offers'$'\n''events'$'\n''performance'$'\n''notifications'$'\n''socialMedia'$'\n''recentNotifications'$'\n''linkedAccounts'$'\n''recruitingCalendar'$'\n''quickTasks'$'\n''atAGlanceSummary'$'\n''offerStatusOverview'$'\n''interactionTrendChart'$'\n''schoolInterestChart'$'\n''schoolMapWidget'$'\n''coachFollowupWidget'$'\n''eventsSummary'$'\n''performanceSummary'$'\n''recentDocuments'$'\n''interactionStats'$'\n''schoolStatusOverview'$'\n''coachResponsiveness'$'\n''upcomingDeadlines'
        return
        ;;
    esac
}

_deck_prefs_dashboard_hide() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=(--all --none)
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs dashboard hide -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--all')
        __deck_add_completions -W 'statsCards'$'\n''widgets'
        return
        ;;
    '--none')
        __deck_add_completions -W 'statsCards'$'\n''widgets'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __deck_add_completions -W 'coaches'$'\n''schools'$'\n''interactions'$'\n''offers'$'\n''events'$'\n''performance'$'\n''notifications'$'\n''socialMedia'$'\n''recentNotifications'$'\n''linkedAccounts'$'\n''recruitingCalendar'$'\n''quickTasks'$'\n''atAGlanceSummary'$'\n''offerStatusOverview'$'\n''interactionTrendChart'$'\n''schoolInterestChart'$'\n''schoolMapWidget'$'\n''coachFollowupWidget'$'\n''eventsSummary'$'\n''performanceSummary'$'\n''recentDocuments'$'\n''interactionStats'$'\n''schoolStatusOverview'$'\n''coachResponsiveness'$'\n''upcomingDeadlines'
        return
        ;;
    esac
}

_deck_prefs_location() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    set)
        # Offer subcommand argument completions
        "_deck_prefs_location_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'set' -- "${cur}"))
        ;;
    esac
}

_deck_prefs_location_set() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --geocode --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --address --city --state --zip)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs location set -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--address')
        return
        ;;
    '--city')
        return
        ;;
    '--state')
        __deck_add_completions -W 'AL'$'\n''AK'$'\n''AZ'$'\n''AR'$'\n''CA'$'\n''CO'$'\n''CT'$'\n''DE'$'\n''DC'$'\n''FL'$'\n''GA'$'\n''HI'$'\n''ID'$'\n''IL'$'\n''IN'$'\n''IA'$'\n''KS'$'\n''KY'$'\n''LA'$'\n''ME'$'\n''MD'$'\n''MA'$'\n''MI'$'\n''MN'$'\n''MS'$'\n''MO'$'\n''MT'$'\n''NE'$'\n''NV'$'\n''NH'$'\n''NJ'$'\n''NM'$'\n''NY'$'\n''NC'$'\n''ND'$'\n''OH'$'\n''OK'$'\n''OR'$'\n''PA'$'\n''RI'$'\n''SC'$'\n''SD'$'\n''TN'$'\n''TX'$'\n''UT'$'\n''VT'$'\n''VA'$'\n''WA'$'\n''WV'$'\n''WI'$'\n''WY'
        return
        ;;
    '--zip')
        return
        ;;
    esac
}

_deck_prefs_export() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --category)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs export -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--category')
        __deck_add_completions -W 'player'$'\n''school'$'\n''notifications'$'\n''dashboard'$'\n''location'
        return
        ;;
    esac
}

_deck_prefs_import() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs import -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -f
        return
        ;;
    esac
}

_deck_prefs_photo() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    set|get|remove)
        # Offer subcommand argument completions
        "_deck_prefs_photo_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'set get remove' -- "${cur}"))
        ;;
    esac
}

_deck_prefs_photo_set() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs photo set -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -f
        return
        ;;
    esac
}

_deck_prefs_photo_get() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout -o --output)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs photo get -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '-o'|'--output')
        __deck_add_completions -f
        return
        ;;
    esac
}

_deck_prefs_photo_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion prefs photo remove -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    serve|status|stop|seed|reset|delay|logs|trigger|inspect|outbox|fault)
        # Offer subcommand argument completions
        "_deck_sandbox_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'serve status stop seed reset delay logs trigger inspect outbox fault' -- "${cur}"))
        ;;
    esac
}

_deck_sandbox_serve() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --allow-remote --version -h --help)
    repeating_options=(--cors-origin)
    non_repeating_options=(--env --format --jq --timeout --host --port --database --db --public-url --idle-timeout --rate-limit)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox serve -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--host')
        return
        ;;
    '--port')
        return
        ;;
    '--database'|'--db')
        __deck_add_completions -f
        return
        ;;
    '--public-url')
        return
        ;;
    '--idle-timeout')
        return
        ;;
    '--rate-limit')
        return
        ;;
    '--cors-origin')
        return
        ;;
    esac
}

_deck_sandbox_status() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox status -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_stop() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox stop -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_seed() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=(--synthetic)
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox seed -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--synthetic')
        return
        ;;
    esac
}

_deck_sandbox_reset() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox reset -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_delay() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox delay -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_logs() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace -f --follow --bodies --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --status --method --path --user --since --limit)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox logs -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--status')
        __deck_add_completions -W '2xx'$'\n''3xx'$'\n''4xx'$'\n''5xx'
        return
        ;;
    '--method')
        __deck_add_completions -W 'GET'$'\n''POST'$'\n''PUT'$'\n''PATCH'$'\n''DELETE'$'\n''HEAD'$'\n''OPTIONS'
        return
        ;;
    '--path')
        return
        ;;
    '--user')
        return
        ;;
    '--since')
        return
        ;;
    '--limit')
        return
        ;;
    esac
}

_deck_sandbox_trigger() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    subscription|invite-expiry|purchase|store)
        # Offer subcommand argument completions
        "_deck_sandbox_trigger_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'subscription invite-expiry purchase store' -- "${cur}"))
        ;;
    esac
}

_deck_sandbox_trigger_subscription() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --email --status --trial-ends)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox trigger subscription -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--email')
        return
        ;;
    '--status')
        __deck_add_completions -W 'active'$'\n''trialing'$'\n''past_due'$'\n''inactive'
        return
        ;;
    '--trial-ends')
        return
        ;;
    esac
}

_deck_sandbox_trigger_invite-expiry() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox trigger invite-expiry -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_trigger_purchase() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=(--item)
    non_repeating_options=(--env --format --jq --timeout --store --total)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox trigger purchase -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--store')
        return
        ;;
    '--total')
        return
        ;;
    '--item')
        return
        ;;
    esac
}

_deck_sandbox_trigger_store() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --name)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox trigger store -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--name')
        return
        ;;
    esac
}

_deck_sandbox_inspect() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    workspace|session|store|events|prefs)
        # Offer subcommand argument completions
        "_deck_sandbox_inspect_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'workspace session store events prefs' -- "${cur}"))
        ;;
    esac
}

_deck_sandbox_inspect_workspace() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox inspect workspace -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_inspect_session() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox inspect session -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_inspect_store() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox inspect store -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_inspect_events() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --user --type --limit)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox inspect events -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--user')
        return
        ;;
    '--type')
        __deck_add_completions -W 'onboarding_take_test'$'\n''mbti_page_advance'$'\n''mbti_submitted'$'\n''mbti_completed'
        return
        ;;
    '--limit')
        return
        ;;
    esac
}

_deck_sandbox_inspect_prefs() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox inspect prefs -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_outbox() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --to)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox outbox -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--to')
        return
        ;;
    esac
}

_deck_sandbox_fault() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|clear)
        # Offer subcommand argument completions
        "_deck_sandbox_fault_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list clear' -- "${cur}"))
        ;;
    esac
}

_deck_sandbox_fault_add() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --reset --truncate --malformed --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --method --status --retry-after --latency --drop-field --retype-field --enum-value --times --probability)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox fault add -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--method')
        __deck_add_completions -W 'ANY'$'\n''GET'$'\n''POST'$'\n''PUT'$'\n''PATCH'$'\n''DELETE'
        return
        ;;
    '--status')
        return
        ;;
    '--retry-after')
        return
        ;;
    '--latency')
        return
        ;;
    '--drop-field')
        return
        ;;
    '--retype-field')
        return
        ;;
    '--enum-value')
        return
        ;;
    '--times')
        return
        ;;
    '--probability')
        return
        ;;
    esac
}

_deck_sandbox_fault_list() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --all --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox fault list -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_sandbox_fault_clear() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion sandbox fault clear -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_repl() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion repl -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_run() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --keep-going --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion run -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -f
        return
        ;;
    esac
}

_deck_completion() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 1

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -W 'bash'$'\n''zsh'$'\n''fish'
        return
        ;;
    esac
}

_deck_plugins() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion plugins -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_doctor() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion doctor -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_contract() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    check|fixtures|list)
        # Offer subcommand argument completions
        "_deck_contract_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'check fixtures list' -- "${cur}"))
        ;;
    esac
}

_deck_contract_check() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --write-baseline --version -h --help)
    repeating_options=(--service --operation)
    non_repeating_options=(--env --format --jq --timeout --report --out --baseline --fixtures --rate --max-requests)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion contract check -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--service')
        return
        ;;
    '--operation')
        return
        ;;
    '--report')
        __deck_add_completions -W 'junit'$'\n''json'
        return
        ;;
    '--out')
        __deck_add_completions -f
        return
        ;;
    '--baseline')
        __deck_add_completions -f
        return
        ;;
    '--fixtures')
        __deck_add_completions -f
        return
        ;;
    '--rate')
        return
        ;;
    '--max-requests')
        return
        ;;
    esac
}

_deck_contract_fixtures() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --fixtures)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion contract fixtures -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--fixtures')
        __deck_add_completions -f
        return
        ;;
    esac
}

_deck_contract_list() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion contract list -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_deck_api() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace -i --include --version -h --help)
    repeating_options=(-f --raw-field -F --field -H --header)
    non_repeating_options=(--env --format --jq --timeout --service -X --method --input)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion api -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--service')
        __deck_add_live_completions "$(__deck_custom_complete ---completion api -- --service "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '-X'|'--method')
        return
        ;;
    '-f'|'--raw-field')
        return
        ;;
    '-F'|'--field')
        return
        ;;
    '--input')
        __deck_add_completions -f
        return
        ;;
    '-H'|'--header')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion api -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_qa() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    run|list|coverage|show|export)
        # Offer subcommand argument completions
        "_deck_qa_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'run list coverage show export' -- "${cur}"))
        ;;
    esac
}

_deck_qa_run() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --fail-fast --allow-writes --version -h --help)
    repeating_options=(--tag --id --allow-writes-outside)
    non_repeating_options=(--env --format --jq --timeout --jobs --report --out --data)
    __deck_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa run -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--tag')
        __deck_add_completions -W 'readonly'$'\n''writes'$'\n''sandbox'$'\n''exclusive'
        return
        ;;
    '--id')
        return
        ;;
    '--jobs')
        return
        ;;
    '--report')
        __deck_add_completions -W 'junit'$'\n''tap'$'\n''json'$'\n''html'
        return
        ;;
    '--out')
        __deck_add_completions -f
        return
        ;;
    '--data')
        __deck_add_completions -o plusdirs -fX '!*.@(csv|yaml|yml)'
        return
        ;;
    '--allow-writes-outside')
        __deck_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa run -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_qa_list() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=(--tag --id)
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa list -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--tag')
        __deck_add_completions -W 'readonly'$'\n''writes'$'\n''sandbox'$'\n''exclusive'
        return
        ;;
    '--id')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa list -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_qa_coverage() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --allow-writes --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout --results)
    __deck_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa coverage -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    '--results')
        __deck_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa coverage -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_qa_show() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa show -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa show -- positional@0 "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_deck_qa_export() {
    repeating_flags=()
    non_repeating_flags=(--json --csv-raw --trace --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--env --format --jq --timeout)
    __deck_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--env')
        __deck_add_live_completions "$(__deck_custom_complete ---completion qa export -- --env "${COMP_CWORD}" "$(__deck_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __deck_add_completions -W 'table'$'\n''json'$'\n''yaml'$'\n''csv'
        return
        ;;
    '--jq')
        return
        ;;
    '--timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __deck_add_completions -d
        return
        ;;
    esac
}

_deck_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __deck_offer_flags_options -1
}

complete -o filenames -F __deck_words_joined deck