function __deck_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __deck_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __deck_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __deck_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __deck_parse_tokens -S
    set -l unparsed_tokens (__deck_tokens -pc)
    switch $unparsed_tokens[1]
    case 'deck'
        __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'env'
            __deck_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            case 'show'
                __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            case 'use'
                __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            case 'add'
                __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'from=' 'version' 'h/help'
            case 'set'
                __deck_parse_subcommand -r 2 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            case 'remove'
                __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            end
        case 'auth'
            __deck_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'signup'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'email=' 'password-stdin' 'version' 'h/help'
            case 'login'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'email=' 'password-stdin' 'with-token' 'version' 'h/help'
            case 'status'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'offline' 'version' 'h/help'
            case 'switch'
                __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            case 'logout'
                __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            case 'token'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            end
        case 'brokerage'
            __deck_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'search'
                __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'limit=' 'version' 'h/help'
            end
        case 'sandbox'
            __deck_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'serve'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'host=' 'port=' 'db=' 'version' 'h/help'
            case 'status'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            case 'seed'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'brokerages=' 'version' 'h/help'
            case 'reset'
                __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            case 'delay'
                __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
            end
        case 'repl'
            __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
        case 'run'
            __deck_parse_subcommand 1 'env=' 'json' 'trace' 'timeout=' 'keep-going' 'version' 'h/help'
        case 'completion'
            __deck_parse_subcommand 1 'version' 'h/help'
        case 'plugins'
            __deck_parse_subcommand 0 'env=' 'json' 'trace' 'timeout=' 'version' 'h/help'
        case 'help'
            __deck_parse_subcommand -r 1 'version'
        end
    end
end

function __deck_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __deck_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __deck_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __deck_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__deck_tokens -p)
    if test -z "$(__deck_tokens -t)"
        set -l index (count (__deck_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'deck' -f
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'env' -d 'List, show, choose and edit environments.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'auth' -d 'Sign up, sign in and manage tokens, per environment and account.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'brokerage' -d 'Search the canonical brokerages (the onboarding typeahead).'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'sandbox' -d 'Serve the sandbox backend, and seed, reset or inspect it.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'repl' -d 'Start the interactive shell (also: `deck` with no arguments on a terminal).'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'run' -d 'Run the deck commands in a file (or stdin, `-`), one per line.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'completion' -d 'Print the completion script for bash, zsh or fish.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'plugins' -d 'List external plugins: executables named deck-NAME on PATH.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env" -eq 1' -fa 'list' -d 'List environments; * marks the current one.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env" -eq 1' -fa 'show' -d 'Show an environment\'s service URLs (the current one by default).'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env" -eq 1' -fa 'use' -d 'Make an environment the current one (saved in the config file).'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env" -eq 1' -fa 'add' -d 'Add an environment, empty or copied from another one.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env" -eq 1' -fa 'set' -d 'Set service URLs (SERVICE=URL) or settings of an environment.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env" -eq 1' -fa 'remove' -d 'Remove an environment you added.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env list" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion env list -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env list" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env list" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env list" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env list" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env show" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion env show -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env show" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env show" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env show" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env show" -eq 1' -fka '(__deck_custom_completion ---completion env show -- positional@0 (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env show" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env use" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion env use -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env use" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env use" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env use" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env use" -eq 1' -fka '(__deck_custom_completion ---completion env use -- positional@0 (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env use" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env use" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env add" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion env add -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env add" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env add" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env add" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env add" from' -l 'from' -d 'Copy the service URLs and settings of this environment.' -rfka '(__deck_custom_completion ---completion env add -- --from (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env add" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env set" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion env set -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env set" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env set" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env set" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env set" -eq 1' -fka '(__deck_custom_completion ---completion env set -- positional@0 (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env set" -ge 2' -fka 'flyr= kiosk= recruiting= nudge= auth= allow-insecure-http= sandbox='
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env set" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env remove" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion env remove -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env remove" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env remove" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env remove" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck env remove" -eq 1' -fka '(__deck_custom_completion ---completion env remove -- positional@0 (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env remove" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck env remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck auth" -eq 1' -fa 'signup' -d 'Create an account and sign in to it.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck auth" -eq 1' -fa 'login' -d 'Sign in with a password, or store a token you already have.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck auth" -eq 1' -fa 'status' -d 'Show the signed-in accounts of the environment, and check the active one with the server.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck auth" -eq 1' -fa 'switch' -d 'Make another signed-in account the active one.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck auth" -eq 1' -fa 'logout' -d 'Sign out (the active account by default) and forget its tokens.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck auth" -eq 1' -fa 'token' -d 'Print the active account\'s access token (refreshed if expired), for scripts and plugins.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth signup" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion auth signup -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth signup" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth signup" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth signup" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth signup" email' -l 'email' -d 'The account\'s email address.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth signup" password-stdin' -l 'password-stdin' -d 'Read the password from stdin (otherwise it is asked for on the terminal).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth signup" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth signup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion auth login -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" email' -l 'email' -d 'The account\'s email address.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" password-stdin' -l 'password-stdin' -d 'Read the password from stdin (otherwise it is asked for on the terminal).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" with-token' -l 'with-token' -d 'Read an access token from stdin instead of signing in with a password.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth login" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth status" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion auth status -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth status" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth status" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth status" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth status" offline' -l 'offline' -d 'Do not contact the server; show what is stored.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth status" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth switch" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion auth switch -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth switch" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth switch" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth switch" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck auth switch" -eq 1' -fka '(__deck_custom_completion ---completion auth switch -- positional@0 (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth switch" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth switch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth logout" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion auth logout -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth logout" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth logout" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth logout" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck auth logout" -eq 1' -fka '(__deck_custom_completion ---completion auth logout -- positional@0 (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth logout" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth logout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth token" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion auth token -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth token" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth token" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth token" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth token" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck auth token" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck brokerage" -eq 1' -fa 'search' -d 'Search brokerages by name.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage search" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion brokerage search -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage search" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage search" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage search" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck brokerage search" -eq 1' -fka '(__deck_custom_completion ---completion brokerage search -- positional@0 (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage search" limit' -l 'limit' -d 'The most results to return (1-50).' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage search" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck brokerage search" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck sandbox" -eq 1' -fa 'serve' -d 'Serve the sandbox on loopback until Ctrl-C.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck sandbox" -eq 1' -fa 'status' -d 'Show the current environment\'s sandbox: its database and what it holds.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck sandbox" -eq 1' -fa 'seed' -d 'Seed the demo data (brokerages, owner@sandbox.test / sandbox), or add synthetic brokerages for benchmarks.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck sandbox" -eq 1' -fa 'reset' -d 'Delete everything in the sandbox and seed it again from scratch.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck sandbox" -eq 1' -fa 'delay' -d 'Delay every API response of a served sandbox, to try timeouts and Ctrl-C (0 turns it off).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion sandbox serve -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" host' -l 'host' -d 'The address to listen on. Anything but loopback exposes the sandbox to the network.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" port' -l 'port' -d 'The port to listen on (0 for any free port).' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" db' -l 'db' -d 'The SQLite database file (default: the embedded sandbox\'s).' -rF
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox status" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion sandbox status -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox status" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox status" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox status" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox status" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox seed" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion sandbox seed -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox seed" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox seed" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox seed" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox seed" brokerages' -l 'brokerages' -d 'Add this many synthetic brokerages (up to 1,000,000).' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox seed" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox seed" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox reset" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion sandbox reset -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox reset" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox reset" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox reset" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox reset" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox reset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox delay" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion sandbox delay -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox delay" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox delay" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox delay" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox delay" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck sandbox delay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck repl" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion repl -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck repl" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck repl" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck repl" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck repl" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck repl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck run" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion run -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck run" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck run" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck run" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck run" -eq 1' -F
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck run" keep-going' -l 'keep-going' -d 'Run every line, and exit non-zero at the end if any failed.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck run" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck run" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_positional "deck completion" -eq 1' -fka 'bash zsh fish'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck completion" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck completion" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck plugins" env' -l 'env' -d 'The environment to use (overrides DECK_ENV and the config file).' -rfka '(__deck_custom_completion ---completion plugins -- --env (count (__deck_tokens -pc)) (__deck_tokens -tC))'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck plugins" json' -l 'json' -d 'Write JSON to stdout (errors still go to stderr).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck plugins" trace' -l 'trace' -d 'Trace each HTTP request to stderr: method, URL, status, time. --trace=body adds headers and bodies (secrets redacted).'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck plugins" timeout' -l 'timeout' -d 'Seconds to wait for each HTTP request.' -rfka ''
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck plugins" version' -l 'version' -d 'Show the version.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck plugins" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'deck' -n '__deck_should_offer_completions_for_flags_or_options "deck help" version' -l 'version' -d 'Show the version.'