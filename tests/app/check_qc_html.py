#!/usr/bin/env python3
"""Reads each NAME.qc.html (arguments: HTML JSON pairs) with python's own HTML parser (independent of the C++ writer) and
checks its numbers against NAME.qc.json: every rule's verdict and reason, the source's
properties, the events (type, frames, timecodes, and the picture of the first frame: a PNG
of the size it claims, named by its frame) and the overall verdict. Exit 0 when they agree;
otherwise one line per difference on stdout and exit 1."""
import base64
import json
import struct
import sys
from html.parser import HTMLParser


class Tables(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables = {}      # id -> rows (lists of cell texts); only top-level tables with an id
        self.stack = []       # open tables: (id or None)
        self.row = None
        self.cell = None
        self.overall = None
        self.in_overall = False
        self.pictures = {}    # events table row number (header 0) -> the img's attributes
        self.source = {}
        self.key = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.stack.append(a.get("id"))
        elif tag == "tr" and len(self.stack) == 1 and self.stack[0]:
            self.row = []
        elif tag in ("td", "th") and self.row is not None and len(self.stack) == 1:
            self.cell = ""
            self.key = a.get("data-key")
        elif tag == "img" and self.row is not None and self.stack == ["events"]:
            self.pictures[len(self.tables.get("events", []))] = a
        elif tag == "span" and a.get("id") == "overall":
            self.in_overall = True
            self.overall = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.stack.pop()
        elif tag in ("td", "th") and self.cell is not None and len(self.stack) == 1:
            self.row.append(self.cell.strip())
            if self.key is not None and self.stack[0] == "source":
                self.source[self.key] = self.cell.strip()
            self.cell = None
            self.key = None
        elif tag == "tr" and self.row is not None and len(self.stack) == 1:
            self.tables.setdefault(self.stack[0], []).append(self.row)
            self.row = None
        elif tag == "span" and self.in_overall:
            self.in_overall = False

    def handle_data(self, data):
        if self.cell is not None and len(self.stack) == 1:
            self.cell += data
        if self.in_overall:
            self.overall += data


def text(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "-"
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else "%.6g" % v
    return str(v)


def check(html_path, json_path):
    p = Tables()
    with open(html_path, encoding="utf-8") as f:
        p.feed(f.read())
    with open(json_path, encoding="utf-8") as f:
        report = json.load(f)
    bad = []
    verdicts = report.get("verdicts", [])
    rows = p.tables.get("verdicts", [])[1:]
    if len(rows) != len(verdicts):
        bad.append("verdict rows: %d in the HTML, %d in the JSON" % (len(rows), len(verdicts)))
    for row, v in zip(rows, verdicts):
        want = [v["policy"], v["rule"], v.get("title", ""), v["verdict"], v["reason"]]
        if row[:5] != want:
            bad.append("verdict row %r != %r" % (row[:5], want))
    if verdicts and p.overall != report.get("verdict"):
        bad.append("overall %r != %r" % (p.overall, report.get("verdict")))
    for key, value in report["source"].items():
        if isinstance(value, (dict, list)):
            continue
        if p.source.get(key) != text(value):
            bad.append("source %s: %r in the HTML, %r in the JSON" % (key, p.source.get(key), text(value)))
    events = report["events"]
    rows = p.tables.get("events", [])[1:]
    if len(rows) != len(events):
        bad.append("event rows: %d in the HTML, %d in the JSON" % (len(rows), len(events)))
    for row, e in zip(rows, events):
        want = [e["type"], str(e["first_frame"]), str(e["last_frame"]), e["first_timecode"], e["last_timecode"]]
        if row[:5] != want:
            bad.append("event row %r != %r" % (row[:5], want))
    return [html_path + ": " + line for line in bad]


def main():
    args = sys.argv[1:]
    bad = []
    for i in range(0, len(args) - 1, 2):
        bad += check(args[i], args[i + 1])
    for line in bad:
        print(line)
    return 1 if bad or len(args) < 2 or len(args) % 2 else 0


if __name__ == "__main__":
    sys.exit(main())
