grep -q apple notes.txt && echo found || echo missing
grep -q zzz notes.txt && echo found || echo missing
