#!/usr/bin/env bash
# tests/scripts/docs.sh on a planted manual: which blocks run, in which tier,
# with which exit status; a failing block named by FILE:LINE; a wrong marker
# and a transcript that would not run refused; skips said with their reason.
# The manual's commands are shell built-ins and files of the tree, so no
# build is needed (BIN: an empty folder).
#   docs_plants.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "docs_plants.sh: FAIL: $*" >&2; failed=1; }
mkdir -p "$tmp/src/docs" "$tmp/src/results" "$tmp/build/bin"

# README.md: blocks that pass (sh, console with a status shown, an indented
# one, one that exits 1 as marked, one that writes into results/), a block
# in a list that is prose, a skip, a full block
cat >"$tmp/src/README.md" <<'EOF'
# planted

```sh
test -f README.md
echo ok >results/written
```

```console
$ false; echo $?
1
$ test -d docs && \
  test -d results
```

A task:

    test -f docs/a.md

- a list item

    its continued text, not code

The verdict: <!-- docs-test: exits 1: shown -->

    false

<!-- docs-test: skip: needs a GPU -->
```sh
nvidia-smi
```

<!-- docs-test: full: slow -->
```sh
test -L build
```

```text
not run: output
```
EOF
# docs/a.md: a failing sh block at line 3, a failing console command, a bad
# marker, a transcript in a block that does not run
cat >"$tmp/src/docs/a.md" <<'EOF'
# a

```sh
true
exit 3
```

```console
$ true
$ test -f nothing-here
```

<!-- docs-test: sometimes: why -->
```sh
true
```

```
$ echo a transcript
```
EOF

# docs/b.md: blocks another block runs first (README.md:3 starts with
# b.md:3's command; README.md:33 is b.md:17 but for a comment, and comes
# first); b.md:7, not a simple command, runs though b.md:11 starts with it
cat >"$tmp/src/docs/b.md" <<'EOF'
# b

```sh
test -f README.md
```

```sh
true; test -d docs
```

```sh
true; test -d docs
test -d results
```

<!-- docs-test: full: slow -->
```sh
test -L build    # the build's link
```
EOF

"$here/docs.sh" "$tmp/src" "$tmp/build/bin" list >"$tmp/list" 2>"$tmp/list.err"
[ $? = 1 ] || fail "list: expected exit 1 (the bad marker)"
grep -q '^README.md:17  *sh  *default' "$tmp/list" || fail "the indented block is not a default sh block"
grep -q '^README.md:21 ' "$tmp/list" && fail "the list's continued text taken for a block"
grep -q '^README.md:25  *sh  *default  *exit 1 *shown' "$tmp/list" || fail "exits 1 not read"
grep -q '^README.md:38' "$tmp/list" && fail "a text block listed"

"$here/docs.sh" "$tmp/src" "$tmp/build/bin" default >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] || fail "default: exit $rc, expected 1"
for ok in README.md:3 README.md:8 README.md:17 README.md:25; do
	grep -q "^docs.sh: $ok: ok" "$tmp/out" || fail "$ok did not pass"
done
grep -q '^docs.sh: README.md:28: skipped: needs a GPU' "$tmp/out" || fail "the skip not said"
grep -q 'README.md:33' "$tmp/out" && fail "a full block ran in the default tier"
grep -q '^docs.sh: docs/a.md:3: FAILED (exit 3, not 0' "$tmp/out" || fail "docs/a.md:3 not failed"
grep -q '^docs.sh: docs/a.md:8: FAILED (exit 1, not 0' "$tmp/out" || fail "docs/a.md:8 not failed"
grep -q 'the command ending on line 2 of the block' "$tmp/out" || fail "the console line not named"
grep -q '^docs.sh: docs/a.md:14: a marker is' "$tmp/out" || fail "the bad marker not refused"
grep -q '^docs.sh: docs/a.md:19: a transcript' "$tmp/out" || fail "the transcript not refused"
grep -q '^docs.sh: docs/b.md:3: not run: README.md:3 runs its commands first' "$tmp/out" ||
	fail "b.md:3 not left to README.md:3"
for ok in docs/b.md:7 docs/b.md:11; do
	grep -q "^docs.sh: $ok: ok" "$tmp/out" || fail "$ok did not pass"
done
grep -q 'default tier: 8 block(s) ran, 1 run by another, 1 skipped, 4 failed' "$tmp/out" || fail "the count"
[ -e "$tmp/src/results/written" ] && fail "a block wrote into the source tree"

"$here/docs.sh" "$tmp/src" "$tmp/build/bin" full README.md >"$tmp/full" 2>&1 ||
	fail "full: exit $?"
grep -q '^docs.sh: README.md:33: ok' "$tmp/full" || fail "the full block did not run (or build is no link)"
"$here/docs.sh" "$tmp/src" "$tmp/build/bin" full docs/b.md >"$tmp/full_b" 2>&1 ||
	fail "full docs/b.md: exit $?"
grep -q '^docs.sh: docs/b.md:17: not run: README.md:33 runs its commands first' "$tmp/full_b" ||
	fail "b.md:17 not left to README.md:33"
grep -q 'full tier: 0 block(s) ran, 1 run by another' "$tmp/full_b" || fail "the full count"

[ $failed = 0 ] || { sed 's/^/    /' "$tmp/out" >&2; exit 1; }
echo "docs_plants.sh: ok"
