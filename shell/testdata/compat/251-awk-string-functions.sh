awk '{print length($0), toupper(substr($0, 1, 3)), index($0, "an")}' notes.txt
