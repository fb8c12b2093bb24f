#!/usr/bin/env python3
"""The house rules (README.md, "House style"; docs/ARCHITECTURE.md) as checks, one per CTest
entry: `house_rules.py RULE --root SOURCE_DIR [--binary CUDASCOPE]`. Each prints every
offence as `path:line: reason` and exits 1 when there is one, 0 when there is none, 77
(skipped) only where the rule cannot apply (commit subjects outside a git checkout)."""
import argparse
import os
import re
import subprocess
import sys

SOURCE_EXT = ('.h', '.cpp', '.cu', '.cuh')
MAX_LINES = 900
# Subjects are checked from this commit on (the rule started with it); older history stays.
SUBJECTS_FROM = '9fd33118ca5afcf8764aa2985e57285fc075f5ee'
MAX_SUBJECT = 72


def tracked(root):
    """The files of the checkout (git's list where there is one, else a walk of the tree)."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files'], capture_output=True, text=True, check=True).stdout
        return [f for f in out.split('\n') if f and os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if not x.startswith(('.', 'build'))]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return files


def read(root, f):
    with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fh:
        return fh.read()


def file_length(root, _):
    bad = []
    for f in tracked(root):
        if f.endswith(SOURCE_EXT):
            n = read(root, f).count('\n')
            if n > MAX_LINES:
                bad.append(f'{f}:{n}: {n} lines, over {MAX_LINES}: split it by job')
    return bad


CUDA_CALL = re.compile(r'\bcuda[A-Z][A-Za-z0-9]*\s*\(')
# decode/ hands NVDEC the engine's primary context through FFmpeg's CUDA device type, by the
# driver API (cu*), not the runtime; anything else that needs the GPU asks cuda/.
CUDA_ALLOWED = ('cuda/', 'tests/', 'bench/', 'fuzz/')


def cuda_runtime(root, _):
    bad = []
    for f in tracked(root):
        if not f.endswith(SOURCE_EXT) or f.startswith(CUDA_ALLOWED):
            continue
        for i, line in enumerate(read(root, f).split('\n'), 1):
            code = line.split('//', 1)[0]
            m = CUDA_CALL.search(code)
            if m:
                bad.append(f'{f}:{i}: CUDA runtime call {m.group(0).rstrip("(").strip()} outside cuda/')
    return bad


ENGINE_CAST = re.compile(r'dynamic_cast\s*<\s*(const\s+)?(cs::)?(cuda::)?(Cuda|Cpu)Engine\b')


def engine_casts(root, _):
    bad = []
    for f in tracked(root):
        if not f.endswith(SOURCE_EXT):
            continue
        for i, line in enumerate(read(root, f).split('\n'), 1):
            if ENGINE_CAST.search(line.split('//', 1)[0]):
                bad.append(f'{f}:{i}: dynamic_cast to an engine type: ask the Engine for the capability '
                           '(core/Engine.h) instead')
    return bad


MACHINE_PATH = re.compile(r'(?<![\w.])(/work/|/home/|/root/|/mnt/|/usr/local/nvidia|\.\./shared\b)')
TEXT_EXT = SOURCE_EXT + ('.md', '.txt', '.sh', '.py', '.cmake', '.json', '.in', '.desktop')


def machine_paths(root, _):
    bad = []
    for f in tracked(root):
        if not (f.endswith(TEXT_EXT) or f.startswith('scripts/') or f.startswith('.ci/')):
            continue
        if f == 'tests/lint/house_rules.py':
            continue
        for i, line in enumerate(read(root, f).split('\n'), 1):
            m = MACHINE_PATH.search(line)
            if m:
                bad.append(f'{f}:{i}: names a machine path ({m.group(1)}): take it as an argument')
    return bad


# Docs are design notes: what is and why. A measured before/after is history (git keeps it);
# results tables are generated and stamped with their commit and machine.
TIMING = re.compile(r'\d(\.\d+)?\s*(ms|µs|us|fps|s|x)\b')
BEFORE_AFTER = re.compile(r'\bbefore\b.*\b(after|now)\b|\b(after|now)\b.*\bbefore\b', re.I)
GENERATED = 'do not edit by hand'


def doc_timings(root, _):
    bad = []
    for f in tracked(root):
        if not f.endswith('.md'):
            continue
        text = read(root, f)
        if GENERATED in text:
            continue
        for i, line in enumerate(text.split('\n'), 1):
            if TIMING.search(line) and BEFORE_AFTER.search(line):
                bad.append(f'{f}:{i}: a before/after timing in a design note: keep results in a generated table')
    return bad


def nodiscard(root, _):
    text = read(root, 'core/Status.h')
    bad = []
    for cls in ('Status', 'Result'):
        if not re.search(r'class\s+\[\[nodiscard\]\]\s+' + cls + r'\b', text):
            bad.append(f'core/Status.h:1: class {cls} is not [[nodiscard]]: an ignored error must not compile')
    return bad


def commit_subjects(root, _):
    try:
        subprocess.run(['git', '-C', root, 'rev-parse', '--git-dir'], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        print('not a git checkout: no history to check')
        sys.exit(77)
    have_base = subprocess.run(['git', '-C', root, 'cat-file', '-e', SUBJECTS_FROM + '^{commit}'],
                               capture_output=True).returncode == 0
    span = [SUBJECTS_FROM + '..HEAD'] if have_base else ['-1', 'HEAD']   # a shallow clone: its tip
    out = subprocess.run(['git', '-C', root, 'log', '--format=%h %s', *span], capture_output=True, text=True,
                         check=True).stdout
    bad = []
    for line in out.split('\n'):
        if not line:
            continue
        h, subject = line.split(' ', 1)
        if len(subject) >= MAX_SUBJECT:
            bad.append(f'commit {h}: subject of {len(subject)} characters (under {MAX_SUBJECT}): {subject[:60]}...')
    return bad


def help_options(binary, command):
    args = [binary] + ([command] if command else []) + ['--help']
    out = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, QT_QPA_PLATFORM='offscreen'))
    text = out.stdout + out.stderr
    # Each option's own line, and the negations named in its text (`--no-qctools: do not ...`).
    return set(re.findall(r'^\s{2}(--[a-z][a-z0-9-]*)', text, re.M)) | set(re.findall(r'(--no-[a-z][a-z0-9-]*):', text))


def readme_synopsis(root, args):
    """README's synopsis block ("## Command line") names exactly the options `COMMAND --help` lists."""
    text = read(root, 'README.md')
    block = text.split('## Command line', 1)[1].split('```', 2)[1]
    sections, current = {}, None
    for line in block.split('\n'):
        m = re.match(r'^cudascope (\w+) ', line)
        if m:
            current = m.group(1)
        elif line.startswith('cudascope'):
            current = None
        if current:
            sections.setdefault(current, set()).update(re.findall(r'(--[a-z][a-z0-9-]*)', line))
    bad = []
    for command in ('export', 'record', 'qc', 'bench', 'probe'):
        listed = help_options(args.binary, command) - {'--help'}
        if not listed and command not in sections:
            continue
        written = sections.get(command, set())
        for o in sorted(listed - written):
            bad.append(f'README.md: `cudascope {command}` synopsis lacks {o} (in `{command} --help`)')
        for o in sorted(written - listed):
            bad.append(f'README.md: `cudascope {command}` synopsis names {o}, which `{command} --help` does not')
    return bad


# GCC 12 at -O1 with ASan turns libstdc++'s <regex> into -Wmaybe-uninitialized errors under
# -Werror, so a file that includes it breaks the asan preset (scripts/dev sanitize): parse by hand.
def no_regex(root, _):
    bad = []
    for f in tracked(root):
        if not f.endswith(SOURCE_EXT):
            continue
        for i, line in enumerate(read(root, f).split('\n'), 1):
            if re.match(r'\s*#\s*include\s*<regex>', line):
                bad.append(f'{f}:{i}: includes <regex>, which the asan preset cannot build (GCC 12): parse by hand')
    return bad


RULES = {f.__name__: f for f in (file_length, cuda_runtime, engine_casts, machine_paths, doc_timings, nodiscard,
                                  no_regex, commit_subjects, readme_synopsis)}

if __name__ == '__main__':
    p = argparse.ArgumentParser()
    p.add_argument('rule', choices=sorted(RULES))
    p.add_argument('--root', required=True)
    p.add_argument('--binary')
    a = p.parse_args()
    offences = RULES[a.rule](a.root, a)
    for o in offences:
        print(o)
    sys.exit(1 if offences else 0)
