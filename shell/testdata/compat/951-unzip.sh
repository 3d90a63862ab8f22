# unzip as Info-ZIP's 6.0 prints and extracts: "Archive:", "inflating"
# (deflated), "extracting" (stored), "creating" (folders), -l, -p, -d, -j,
# -o, -n, -q, -x, members as patterns, the question about an existing
# file answered on stdin (its end: none replaced, status 1), a name that
# matches nothing (status 11), a missing archive (status 9); the archive's
# modes (no umask), times and links. The archive was made by Info-ZIP's
# zip -r -y -X: a.txt 0600 (stored), d/run.sh 0755, d/b.txt (deflated),
# e/ and l -> a.txt, all at 2024-01-02 03:04:05.
base64 -d > t.zip <<'B64'
UEsDBAoAAAAAAIMYIlggMDo2BgAAAAYAAAAFAAAAYS50eHRoZWxsbwpQSwMECgAAAAAAgxgiWAAA
AAAAAAAAAAAAAAIAAABkL1BLAwQKAAAAAACDGCJYvKLmshMAAAATAAAACAAAAGQvcnVuLnNoIyEv
YmluL3NoCmVjaG8gcnVuClBLAwQUAAAACACDGCJYdgWkiAQCAABEBAAABwAAAGQvYi50eHQd08sR
BSEMA8G7okECDOSf2I737nqfaWFFU0tbpaOrJw/ZcuQpL3nLJR/5yk8ZipUoU1nKVko5ylWe5tC0
Jh85NZfm1izNo3k1n9bQsla0+MaltbVK62hdrac9tK0d7anND9rapX20r/ZTDZVVUU3VUvF7S3VU
V/V0ho51ojN1ls7W4e8cnavzdIeudaM7dZfu1i1d/u3VfXpDz3rRm3pLb+uV3tEjRtcgx6DHIMig
yCDJoMkgyqDKIMvg7s/GXYfrcp2u23W8rtf56GcCOt2XOxqaiKaiyWg6mpCmpElpWno2BHfkND1N
UFPUJDVNTVRT1WT1ajHuKGvSmrYmrqlr8pq+JrAp7N203BHZVDaZTWcT2pQ2qU1rE9vVG+CO3ia4
KW6Sm+YmuqluspvuPj0W7khv2pv4pr7Jb/obACNgCHx7VdyhYBiMg4EwEobCWBgMo+HX8+v9MUA8
gkfwCB7BI3gEj+ARPOIeKnd4BI/gETyCR/AIHuk996D/RXPXm+5R96p71r3rHjYewSN4ZPb0ucMj
eASP4BE8gkfwCB7BI6vfCHd4BI/gETyCR/AIHsEjeGT3Y+IOj+ARPIJH8AgewSN4BI9Uvzru8Age
wSN4BI/gETyCR/DI6efJHR7BI3gEj+ARPIJH8Ageuf2OucMjeASP4BE8gkfwCB7BI68ffL/4oQ9Q
SwMECgAAAAAAgxgiWAAAAAAAAAAAAAAAAAIAAABlL1BLAwQKAAAAAACDGCJYuvfrwQUAAAAFAAAA
AQAAAGxhLnR4dFBLAQIeAwoAAAAAAIMYIlggMDo2BgAAAAYAAAAFAAAAAAAAAAEAAACAgQAAAABh
LnR4dFBLAQIeAwoAAAAAAIMYIlgAAAAAAAAAAAAAAAACAAAAAAAAAAAAEADtQSkAAABkL1BLAQIe
AwoAAAAAAIMYIli8ouayEwAAABMAAAAIAAAAAAAAAAEAAADtgUkAAABkL3J1bi5zaFBLAQIeAxQA
AAAIAIMYIlh2BaSIBAIAAEQEAAAHAAAAAAAAAAEAAACkgYIAAABkL2IudHh0UEsBAh4DCgAAAAAA
gxgiWAAAAAAAAAAAAAAAAAIAAAAAAAAAAAAQAO1BqwIAAGUvUEsBAh4DCgAAAAAAgxgiWLr368EF
AAAABQAAAAEAAAAAAAAAAAAAAP+hywIAAGxQSwUGAAAAAAYABgAtAQAA7wIAAAAA
B64
unzip t.zip -d out; echo "status $?"
find out | sort
stat -c '%a %N' out/a.txt out/d/run.sh out/d/b.txt out/e out/l
stat -c '%y %n' out/d/b.txt out/a.txt
cat out/l; out/d/run.sh
unzip -l t.zip
unzip -p t.zip a.txt 'd/r*'
echo n | unzip t.zip a.txt -d out 2>&1; echo "status $?"
unzip t.zip a.txt d/run.sh -d out </dev/null 2>&1; echo "status $?"
echo A | unzip t.zip -d out 2>&1; echo "status $?"
unzip -o t.zip a.txt -d out; echo "status $?"
unzip -n t.zip -d out; echo "status $?"
unzip -q t.zip 'd/*' -d q; find q | sort
unzip t.zip nosuch a.txt -d m 2>&1; echo "status $?"
unzip nosuch.zip 2>&1; echo "status $?"
unzip t -x 'd/*' l -d x; echo "status $?"
unzip -qj t.zip -d j; ls j
mkdir here && cd here && unzip -q ../t.zip a.txt && ls && cd ..
printf 'not a zip' > bad.zip; unzip bad.zip >/dev/null 2>&1; echo "bad: status $?"
