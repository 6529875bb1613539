#!/usr/bin/env bash
# Writes test/upgrade/fixture/ from an earlier release (default: the last commit of round two, migrations 0000-0027):
# checks that commit out in a temporary worktree, installs it, and runs test/upgrade/make-fixture.ts there as a Vitest
# file on the local PostgreSQL, so every record is written by that release's own code. Usage:
#   bash scripts/make-upgrade-fixture.sh [commit]
set -euo pipefail
cd "$(dirname "$0")/.."
commit=${1:-80430e9}
out=$PWD/test/upgrade/fixture
worktree=$(mktemp -d)
trap 'git worktree remove --force "$worktree" >/dev/null 2>&1 || rm -rf "$worktree"' EXIT
git worktree add --detach "$worktree" "$commit" >/dev/null
cp test/upgrade/make-fixture.ts "$worktree/test/upgrade-fixture.test.ts"
sed -i "s#'../helpers/#'./helpers/#" "$worktree/test/upgrade-fixture.test.ts"
cd "$worktree"
npm ci --no-audit --no-fund >/dev/null
FIXTURE_OUT=$out FIXTURE_COMMIT=$(git rev-parse HEAD) DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres} \
  npx vitest run --project main test/upgrade-fixture.test.ts
echo "fixture written to $out"
