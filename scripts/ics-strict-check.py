#!/usr/bin/python3
"""Parses calendar files with python-icalendar, strictly, and prints every problem as JSON lines.

Usage: ics-strict-check.py FILE... ; exit status 1 when any file has a problem. Used by the server
tests (apps/server/test/ics.test.ts) on every calendar file the server makes.
"""
import json
import re
import sys

import icalendar

REQUIRED = {
    "VCALENDAR": ["PRODID", "VERSION"],
    "VEVENT": ["UID", "DTSTAMP", "DTSTART"],
    "VALARM": ["ACTION", "TRIGGER"],
}


def problems_of(text):
    found = []
    if "\n" in text.replace("\r\n", ""):
        found.append("a line ends without CRLF")
    for number, line in enumerate(text.split("\r\n"), 1):
        if len(line.encode("utf-8")) > 75:
            found.append(f"line {number} is longer than 75 octets")
        if re.match(r"^[A-Z-]+(;[^:]*)?:$", line):
            found.append(f"line {number} has an empty value: {line}")
    try:
        calendar = icalendar.Calendar.from_ical(text)
    except Exception as error:  # the parser's own refusal
        return found + [f"refused: {error}"]
    for component in calendar.walk():
        for name, message in component.errors:
            found.append(f"{component.name}.{name}: {message}")
        for name in REQUIRED.get(component.name, []):
            if name not in component:
                found.append(f"{component.name} lacks {name}")
        for name in component.keys():
            try:
                component.decoded(name)
            except Exception as error:
                found.append(f"{component.name}.{name} cannot be decoded: {error!r}")
    return found


def main(paths):
    failed = False
    for path in paths:
        with open(path, encoding="utf-8", newline="") as file:
            problems = problems_of(file.read())
        failed = failed or bool(problems)
        print(json.dumps({"file": path, "problems": problems}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
