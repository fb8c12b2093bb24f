#!/usr/bin/env python3
"""Reads the text of a NAME.qc.pdf that Qt's PDF writer made (app/qc/QcPdf.h) with nothing but
Python's zlib, and checks it against NAME.qc.json: the overall verdict, every rule with its
verdict, every event's type and first and last timecode, the page count in every page's foot.

    check_qc_pdf.py NAME.qc.pdf NAME.qc.json [--print]

Qt writes each run of text as glyph ids (`<gggg> Tj`, one per glyph, each placed by `Td`) in a
font whose /ToUnicode CMap maps them back to characters; a text object (BT ... ET) is one run.
The runs are read in page order, each page's runs joined by newlines. Exit 0 when every check
holds, 1 with one line per failure, 2 on usage.
"""
import json
import re
import sys
import unicodedata
import zlib

OBJ = re.compile(rb'(\d+) 0 obj\s*(.*?)endobj', re.S)
STREAM = re.compile(rb'stream\r?\n(.*?)\r?\nendstream', re.S)


def objects(pdf):
    out = {}
    for num, body in OBJ.findall(pdf):
        m = STREAM.search(body)
        head = body[:m.start()] if m else body
        data = None
        if m:
            data = m.group(1)
            if b'/FlateDecode' in head:
                data = zlib.decompress(data)
        out[int(num)] = (head, data)
    return out


def ref(head, key):
    m = re.search(rb'/' + key + rb'\s+(\d+) 0 R', head)
    return int(m.group(1)) if m else None


def cmap(data):
    """A ToUnicode CMap's glyph -> text (bfchar and bfrange, arrays or a start value)."""
    table = {}
    text = data.decode('latin-1')
    for block in re.findall(r'beginbfchar(.*?)endbfchar', text, re.S):
        for src, dst in re.findall(r'<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>', block):
            table[int(src, 16)] = bytes.fromhex(dst).decode('utf-16-be')
    for block in re.findall(r'beginbfrange(.*?)endbfrange', text, re.S):
        for lo, hi, dst in re.findall(r'<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\[[^\]]*\]|<[0-9A-Fa-f]+>)', block):
            lo, hi = int(lo, 16), int(hi, 16)
            if dst.startswith('['):
                for i, d in enumerate(re.findall(r'<([0-9A-Fa-f]+)>', dst)):
                    table[lo + i] = bytes.fromhex(d).decode('utf-16-be')
            else:
                start = int(dst[1:-1], 16)
                for i in range(hi - lo + 1):
                    table[lo + i] = chr(start + i)
    return table


def page_texts(pdf):
    objs = objects(pdf)
    pages_obj = None
    for num, (head, _) in objs.items():
        if b'/Type /Catalog' in head:
            pages_obj = ref(head, b'Pages')
    kids = re.search(rb'/Kids\s*\[(.*?)\]', objs[pages_obj][0], re.S).group(1)
    pages = []
    for page in [int(n) for n in re.findall(rb'(\d+) 0 R', kids)]:
        head = objs[page][0]
        resources = objs[ref(head, b'Resources')][0]
        fonts = {}
        fontdict = re.search(rb'/Font\s*<<(.*?)>>', resources, re.S)
        for name, num in re.findall(rb'/(\w+)\s+(\d+) 0 R', fontdict.group(1) if fontdict else b''):
            to_unicode = ref(objs[int(num)][0], b'ToUnicode')
            fonts[name.decode()] = cmap(objs[to_unicode][1]) if to_unicode else {}
        content = objs[ref(head, b'Contents')][1].decode('latin-1')
        runs, font, run = [], {}, None
        for token in re.finditer(r'BT|ET|/(\w+)\s+[-\d.]+\s+Tf|<([0-9A-Fa-f]+)>\s*Tj', content):
            if token.group(0) == 'BT':
                run = ''
            elif token.group(0) == 'ET':
                if run:
                    runs.append(run)
                run = None
            elif token.group(1):
                font = fonts.get(token.group(1), {})
            elif run is not None:
                hexs = token.group(2)
                for i in range(0, len(hexs), 4):
                    run += font.get(int(hexs[i:i + 4], 16), '?')
        pages.append(runs)
    return pages


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    pages = page_texts(open(argv[1], 'rb').read())
    if '--print' in argv:
        for i, runs in enumerate(pages):
            print(f'--- page {i + 1}')
            print('\n'.join(runs))
    report = json.load(open(argv[2]))
    words = [run for runs in pages for run in runs]
    text = unicodedata.normalize('NFKC', '\n'.join(words))   # Qt's ligatures (fi) as letters
    failures = []
    if not pages:
        failures.append('no page')
    for i, runs in enumerate(pages):
        if f'page{i + 1}of{len(pages)}' not in ''.join(''.join(runs).split()):
            failures.append(f'page {i + 1} has no "page {i + 1} of {len(pages)}" in its foot')
    squeezed = ''.join(text.split())   # runs may or may not carry their spaces
    def has(s):
        return ''.join(str(s).split()) in squeezed
    name = argv[2].rsplit('/', 1)[-1][:-len('.qc.json')]
    if not has(name):
        failures.append(f'the input name {name} is not in the text')
    if 'verdict' in report:
        if not has('Overall:' + report['verdict']):
            failures.append(f'no "Overall: {report["verdict"]}"')
        for v in report['verdicts']:
            if not has(v['policy'] + v['rule'] + v['title'] + v['verdict']):
                failures.append(f'rule {v["policy"]}/{v["rule"]} with verdict {v["verdict"]} is not in the table')
    for e in report['events']:
        row = e['type'] + str(e['first_frame']) + str(e['last_frame']) + e.get('first_timecode', '') + e.get('last_timecode', '')
        if not has(row):
            failures.append(f'event {e["type"]} {e["first_frame"]}-{e["last_frame"]} is not in the events table')
    for f in failures:
        print(f'check_qc_pdf: {argv[1]}: {f}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
