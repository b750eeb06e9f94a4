# SPDX-License-Identifier: GPL-2.0
#
# Print the definitions of some functions and structures of a kernel C
# file, as they are there: awk -v names="f1 f2 struct:s1" -f mlx5-extract.awk
# FILE.  A function is its lines from the one at column 0 that names it
# (with the return type's line before, if that holds no parenthesis) to
# the "}" at column 0; a structure, from "struct NAME {" to "};".  Each
# name must be found once, or awk exits 1: the bench is not built from a
# source it does not understand.
BEGIN {
	n = split(names, want, " ")
	for (i = 1; i <= n; i++)
		wanted[want[i]] = 1
}

function start(name) {
	if (!(name in wanted) || (name in found))
		return 0
	found[name] = 1
	cur = name
	buf = ""
	return 1
}

cur == "" && /^struct [a-z0-9_]+ \{$/ {
	s = $2
	if (start("struct:" s)) {
		buf = $0 "\n"
		next
	}
}

cur == "" && /^[a-z_]/ && !/^struct [a-z0-9_]+ \{/ {
	line = $0
	if (match(line, /[a-z0-9_]+\(/)) {
		name = substr(line, RSTART, RLENGTH - 1)
		if ((name in wanted) && !(name in found)) {
			# A prototype ends with ";" before any "{".
			cur = name
			buf = (prev !~ /[(;{}\/]/ && prev ~ /^[a-z]/) ? prev "\n" : ""
			buf = buf $0 "\n"
			if ($0 ~ /\);$/)
				cur = ""
			prev = $0
			next
		}
	}
}

cur != "" {
	buf = buf $0 "\n"
	if (buf !~ /\n\{\n/ && $0 ~ /\);$/) {
		cur = ""		# a prototype over several lines
	} else if ($0 == "}" || (cur ~ /^struct:/ && $0 == "};")) {
		found[cur] = 1
		printf "%s\n", buf
		cur = ""
	}
}

{ prev = $0 }

END {
	for (i = 1; i <= n; i++) {
		if (!(want[i] in found)) {
			printf "mlx5-extract.awk: %s not found in %s\n", want[i], FILENAME > "/dev/stderr"
			exit 1
		}
	}
}
