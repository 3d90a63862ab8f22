seq 1 25 > n
split -l 10 n; wc -l xa*
split -l 10 -d n part-; ls part-*
split -b 20 n b; wc -c b*
split -n 3 n ch; wc -c ch*
split -l 7 -a 3 --additional-suffix=.txt n s_; ls s_*
seq 1 3 | split -l 1 - in; cat ina? | tr '\n' ,; echo
