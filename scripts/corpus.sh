#!/usr/bin/env bash
# corpus.sh DIR: builds real-memory page corpora in DIR from processes it
# starts and dumps, and from files of this machine. Every corpus is one file
# of whole 4 KiB pages, DIR/<name>.pages; DIR/recipe.txt says how each was
# made and its size. A dump is an ELF core from gdb's gcore where ptrace is
# allowed, else the readable mappings read through /proc/PID/mem; either way
# only the memory's bytes are kept (the core's PT_LOAD segments, in order).
# Corpora that need a missing tool (java, mkfs.ext4) are left out, saying so.
set -euo pipefail
dir=${1:?usage: corpus.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
recipe=$dir/recipe.txt
: >"$recipe"
MAXMB=${CORPUS_MAXMB:-64} # cap per file-made corpus, in MiB

note() { printf '%s\n' "$*" | tee -a "$recipe" >&2; }

pad() { # pad FILE: zero-pad to a multiple of 4096
	local size; size=$(stat -c %s "$1")
	local rem=$(( size % 4096 ))
	if (( rem )); then head -c $(( 4096 - rem )) /dev/zero >>"$1"; fi
}
# record NAME RECIPE: pads DIR/NAME.pages to whole pages, drops its all-zero
# pages (reserved but untouched memory, empty blocks: both codecs store them
# in 8 bytes, and they made the Go and JVM dumps gigabytes) and notes it.
record() {
	local f=$dir/$1.pages size zeros
	pad "$f"
	zeros=$(python3 - "$f" <<'PY'
import os, sys
path = sys.argv[1]
zero = bytes(4096)
dropped = 0
with open(path, 'r+b') as f:
    out = 0
    while True:
        f.seek(out + dropped * 4096)
        page = f.read(4096)
        if not page:
            break
        if page == zero:
            dropped += 1
            continue
        f.seek(out)
        f.write(page)
        out += 4096
    f.truncate(out)
print(dropped)
PY
)
	size=$(stat -c %s "$f")
	note "$1: $(( size / 4096 )) pages ($zeros all-zero pages dropped), $size bytes, sha256 $(sha256sum "$f" | cut -c1-16): $2"
}

# memdump PID OUT: the memory of PID as pages, by gcore if it works, else
# /proc/PID/mem. Prints the method used.
memdump() {
	local pid=$1 out=$2
	if command -v gcore >/dev/null && gcore -o "$work/core" "$pid" >"$work/gcore.log" 2>&1 \
		&& [ -s "$work/core.$pid" ]; then
		python3 - "$work/core.$pid" "$out" <<'PY'
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
with open(src, 'rb') as f, open(dst, 'wb') as o:
    h = f.read(64)
    assert h[:4] == b'\x7fELF' and h[4] == 2, 'not a 64-bit ELF core'
    phoff, = struct.unpack_from('<Q', h, 32)
    phentsize, phnum = struct.unpack_from('<HH', h, 54)
    for i in range(phnum):
        f.seek(phoff + i * phentsize)
        ptype, _, off, _, _, filesz = struct.unpack('<IIQQQQ', f.read(40))
        if ptype != 1 or filesz == 0:  # PT_LOAD with contents
            continue
        f.seek(off)
        left = filesz
        while left:
            b = f.read(min(left, 1 << 20))
            o.write(b)
            left -= len(b)
PY
		rm -f "$work/core.$pid"
		echo "gcore (PT_LOAD segments in order)"
	else
		python3 - "$pid" "$out" <<'PY'
import sys
pid, dst = sys.argv[1], sys.argv[2]
with open(f'/proc/{pid}/maps') as m, open(f'/proc/{pid}/mem', 'rb', 0) as mem, open(dst, 'wb') as o:
    for line in m:
        f = line.split()
        if not f[1].startswith('r') or (len(f) > 5 and f[5] in ('[vvar]', '[vvar_vclock]', '[vsyscall]')):
            continue
        lo, hi = (int(x, 16) for x in f[0].split('-'))
        for a in range(lo, hi, 1 << 20):
            n = min(1 << 20, hi - a)
            try:
                mem.seek(a)
                b = mem.read(n)
            except OSError:
                continue  # a range the kernel refuses: left out whole
            o.write(b + bytes(n - len(b)))  # a short read keeps the pages aligned
PY
		echo "/proc/PID/mem (readable mappings in order; gcore unavailable or refused)"
	fi
}

# dumpwhenready NAME RECIPE CMD...: starts CMD, waits for it to print
# "ready", dumps it, stops it.
dumpwhenready() {
	local name=$1 what=$2; shift 2
	"$@" >"$work/$name.out" 2>&1 &
	local pid=$!
	for _ in $(seq 600); do
		grep -q ready "$work/$name.out" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || { note "$name: left out: the process ended early: $(tail -3 "$work/$name.out")"; return 0; }
		sleep 0.5
	done
	local method
	method=$(memdump "$pid" "$dir/$name.pages")
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	record "$name" "$what; dumped with $method"
}

# python3: a heap of dicts, strings, lists, ints and floats (some 150 MB).
cat >"$work/heap.py" <<'PY'
import random, sys, time
random.seed(29)
words = [''.join(random.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(random.randint(3, 12))) for _ in range(5000)]
records = []
for i in range(300000):
    records.append({
        'id': i, 'name': random.choice(words) + '_' + str(i), 'score': random.random() * 100,
        'tags': [random.choice(words) for _ in range(random.randint(0, 4))],
        'parent': records[random.randrange(len(records))] if records and i % 3 else None,
    })
index = {r['name']: r for r in records}
print('ready', flush=True)
time.sleep(600)
PY
dumpwhenready python-heap "python3 $(python3 --version 2>&1 | cut -d' ' -f2): 300,000 dicts of ints, floats, strings, lists and parent references, and a dict indexing them by name (scripts/corpus.sh, heap.py)" python3 "$work/heap.py"

# C: its own malloc heap: a binary search tree of nodes with strings, and
# arrays of pointers into it.
cat >"$work/heap.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
struct node { struct node *left, *right, *parent; long key; double weight; char *name; int refs; };
static unsigned long long s = 29;
static unsigned long long rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
int main(void) {
	struct node *root = NULL;
	struct node **all = malloc(sizeof *all * 1000000);
	for (int i = 0; i < 1000000; i++) {
		struct node *n = calloc(1, sizeof *n);
		n->key = (long)(rnd() % 100000000);
		n->weight = (double)(rnd() % 1000) / 7.0;
		char buf[64];
		int len = snprintf(buf, sizeof buf, "node-%ld-%s", n->key, (i % 3) ? "leaf" : "inner");
		n->name = memcpy(malloc(len + 1), buf, len + 1);
		all[i] = n;
		struct node **at = &root, *parent = NULL;
		while (*at) { parent = *at; at = n->key < (*at)->key ? &(*at)->left : &(*at)->right; }
		n->parent = parent; *at = n;
		if (i % 5 == 0) free(all[rnd() % (i + 1)]->name), all[rnd() % (i + 1)]->name = NULL;
	}
	puts("ready"); fflush(stdout);
	sleep(600);
	return root == NULL;
}
C
if cc -O2 -o "$work/heapc" "$work/heap.c" 2>"$work/cc.log"; then
	dumpwhenready c-heap "C ($(cc --version | head -1)): a binary search tree of 1,000,000 malloc'd nodes (pointers, a key, a double, a malloc'd name), some names freed (scripts/corpus.sh, heap.c)" "$work/heapc"
else
	note "c-heap: left out: no C compiler ($(head -1 "$work/cc.log"))"
fi

# Go: maps of structs with pointers, strings and slices.
mkdir -p "$work/goheap"
cat >"$work/goheap/main.go" <<'GO'
package main

import (
	"fmt"
	"math/rand"
	"time"
)

type item struct {
	ID     int
	Name   string
	Tags   []string
	Parent *item
	Score  float64
}

func main() {
	r := rand.New(rand.NewSource(29))
	words := make([]string, 5000)
	for i := range words {
		b := make([]byte, 3+r.Intn(10))
		for j := range b {
			b[j] = byte('a' + r.Intn(26))
		}
		words[i] = string(b)
	}
	items := make([]*item, 0, 500000)
	byName := map[string]*item{}
	for i := 0; i < 500000; i++ {
		it := &item{ID: i, Name: fmt.Sprintf("%s_%d", words[r.Intn(len(words))], i), Score: r.Float64() * 100}
		for k := r.Intn(4); k > 0; k-- {
			it.Tags = append(it.Tags, words[r.Intn(len(words))])
		}
		if i > 0 && i%3 != 0 {
			it.Parent = items[r.Intn(len(items))]
		}
		items = append(items, it)
		byName[it.Name] = it
	}
	fmt.Println("ready", len(byName))
	time.Sleep(600 * time.Second)
}
GO
if (cd "$work/goheap" && GOFLAGS= GOWORK=off go mod init goheap >/dev/null 2>&1 && GOFLAGS= GOWORK=off go build -o ../goheapbin . ) 2>"$work/go.log"; then
	dumpwhenready go-heap "Go ($(go env GOVERSION)): 500,000 structs behind pointers (a string, a slice of strings, a parent pointer, a float) and a map indexing them by name (scripts/corpus.sh, goheap)" "$work/goheapbin"
else
	note "go-heap: left out: go build failed ($(head -1 "$work/go.log"))"
fi

# JVM: a HashMap of objects with strings and references.
if command -v java >/dev/null; then
	cat >"$work/Heap.java" <<'JAVA'
import java.util.*;
public class Heap {
	static final class Item { int id; String name; List<String> tags = new ArrayList<>(); Item parent; double score; }
	public static void main(String[] a) throws Exception {
		Random r = new Random(29);
		String[] words = new String[5000];
		for (int i = 0; i < words.length; i++) { StringBuilder b = new StringBuilder(); for (int j = 3 + r.nextInt(10); j > 0; j--) b.append((char) ('a' + r.nextInt(26))); words[i] = b.toString(); }
		List<Item> items = new ArrayList<>(); Map<String, Item> byName = new HashMap<>();
		for (int i = 0; i < 400000; i++) {
			Item it = new Item(); it.id = i; it.name = words[r.nextInt(words.length)] + "_" + i; it.score = r.nextDouble() * 100;
			for (int k = r.nextInt(4); k > 0; k--) it.tags.add(words[r.nextInt(words.length)]);
			if (i > 0 && i % 3 != 0) it.parent = items.get(r.nextInt(items.size()));
			items.add(it); byName.put(it.name, it);
		}
		System.out.println("ready " + byName.size()); System.out.flush();
		Thread.sleep(600000);
	}
}
JAVA
	dumpwhenready jvm-heap "JVM ($(java -version 2>&1 | head -1)), -Xms256m -Xmx256m -XX:+UseSerialGC: 400,000 objects (a String, an ArrayList of strings, a parent reference, a double) and a HashMap by name (scripts/corpus.sh, Heap.java)" \
		java -Xms256m -Xmx256m -XX:+UseSerialGC -XX:ReservedCodeCacheSize=32m "$work/Heap.java"
else
	note "jvm-heap: left out: no java command"
fi

# filelist NAME RECIPE FILE...: the files, concatenated in the order given,
# up to MAXMB MiB.
fromfiles() {
	local name=$1 what=$2; shift 2
	local out=$dir/$name.pages
	: >"$out"
	for f in "$@"; do
		[ -f "$f" ] && [ -r "$f" ] || continue
		cat "$f" >>"$out"
		(( $(stat -c %s "$out") < MAXMB << 20 )) || break
	done
	truncate -s "<$(( MAXMB << 20 ))" "$out"
	record "$name" "$what"
}

mapfile -t bins < <(find /usr/bin /usr/sbin -maxdepth 1 -type f -perm -u+x -size +16k 2>/dev/null | LC_ALL=C sort)
fromfiles binaries "executables of /usr/bin and /usr/sbin over 16 KiB, in name order, up to $MAXMB MiB" "${bins[@]}"
mapfile -t libs < <(find /usr/lib /lib -name '*.so*' -type f -size +16k 2>/dev/null | LC_ALL=C sort)
fromfiles shared-libs "shared libraries (*.so*) of /usr/lib and /lib over 16 KiB, in path order, up to $MAXMB MiB" "${libs[@]}"
mapfile -t texts < <(find /usr/share/doc /usr/share/man /usr/include /usr/share/perl* /usr/lib/python3* -type f \( -name '*.txt' -o -name '*.h' -o -name '*.py' -o -name '*.pm' -o -name 'copyright' -o -name '*.html' \) 2>/dev/null | LC_ALL=C sort)
fromfiles text "text files (*.txt, *.h, *.py, *.pm, copyright, *.html) of /usr/share/doc, /usr/share/man, /usr/include, /usr/share/perl*, /usr/lib/python3*, in path order, up to $MAXMB MiB" "${texts[@]}"

# ext4: an image made on the fly, filled with a copy of /usr/share and
# /etc files (mkfs.ext4 -d, no mount needed).
if command -v mkfs.ext4 >/dev/null; then
	mkdir -p "$work/fs"
	cp -r /etc "$work/fs/etc" 2>/dev/null || true
	for d in /usr/share/doc /usr/share/man /usr/include; do
		[ -d "$d" ] && cp -r "$d" "$work/fs/$(basename "$d")" 2>/dev/null || true
	done
	size=$(du -sm "$work/fs" | cut -f1)
	size=$(( size + size / 4 + 16 ))
	if mkfs.ext4 -q -F -E root_owner=0:0 -d "$work/fs" "$dir/ext4-image.pages" "${size}M" 2>"$work/mkfs.log"; then
		record ext4-image "mkfs.ext4 $(mkfs.ext4 -V 2>&1 | head -1 | cut -d' ' -f2) image of ${size} MiB made with -d from copies of /etc, /usr/share/doc, /usr/share/man and /usr/include"
	else
		note "ext4-image: left out: mkfs.ext4 -d failed ($(head -1 "$work/mkfs.log"))"
		rm -f "$dir/ext4-image.pages"
	fi
else
	note "ext4-image: left out: no mkfs.ext4"
fi
