# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# flowtop.bash -- bash completion for flowtop(8): installed as
# /usr/share/bash-completion/completions/flowtop. The options and the sort columns come
# from `flowtop --help` (the program's own option and column tables), so the completion
# never lists one the program does not take.

# _flowtop_help: flowtop's --help, once a shell
_flowtop_help() {
	[ -n "${_flowtop_help_text:-}" ] || _flowtop_help_text=$("${1:-flowtop}" --help 2>/dev/null)
	printf '%s\n' "$_flowtop_help_text"
}

_flowtop() {
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion || return
	else
		cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	fi
	local bin=${COMP_WORDS[0]} help
	help=$(_flowtop_help "$bin")
	case "$prev" in
	-i | --interface)
		local ifaces
		ifaces="any $(ls /sys/class/net 2>/dev/null)"
		# a list: complete the name after the last comma
		local head=${cur%,*} tail=${cur##*,} w
		[ "$head" = "$cur" ] && head= || head+=,
		COMPREPLY=()
		for w in $ifaces; do
			[[ $w == "$tail"* ]] && COMPREPLY+=("$head$w")
		done
		return ;;
	-s | --sort)
		# the sort columns, as --help lists them
		local cols
		cols=$(printf '%s\n' "$help" | sed -n '/--sort COLUMN/,/(default/p' |
			sed -e 's/.*--sort COLUMN[^:]*://' -e 's/(default.*//' | tr -d ',\n')
		mapfile -t COMPREPLY < <(compgen -W "$cols" -- "$cur")
		return ;;
	--group)
		mapfile -t COMPREPLY < <(compgen -W "host prefix as country port" -- "$cur")
		return ;;
	--metrics-group)
		mapfile -t COMPREPLY < <(compgen -W "as country port" -- "$cur")
		return ;;
	--color)
		mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur")
		return ;;
	--columns)
		mapfile -t COMPREPLY < <(compgen -W "as cc as,cc" -- "$cur")
		return ;;
	-r | --read | -o | --snapshot | --geo-db)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null
		return ;;
	--netns) # names as they are: compgen -W would expand a $(...) in one
		local ns
		for ns in /run/netns/*; do
			ns=${ns##*/}
			[ -e "/run/netns/$ns" ] && [[ $ns == "$cur"* ]] && COMPREPLY+=("$(printf %q "$ns")")
		done
		return ;;
	-d | --delay | -n | --iterations | -m | --max-hosts | -L | --limit | -f | --filter | \
		-u | --user | --listen | --metrics-top | --ring-memory | --speed | --prefix)
		[ "$prev" = -u ] || [ "$prev" = --user ] &&
			mapfile -t COMPREPLY < <(compgen -u -- "$cur")
		return ;;
	esac
	if [[ $cur == -* ]]; then
		local opts
		opts=$(printf '%s\n' "$help" | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u)
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
	fi
}
complete -F _flowtop flowtop
