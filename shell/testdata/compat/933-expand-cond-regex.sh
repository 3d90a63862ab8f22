# [[ =~ ]] with glibc's brace rules, ~ in a regex, [[ !(x) ]] without
# extglob, failglob skipping the rest of the line, mapfile at a NUL byte
for re in '{' 'a{' 'a{1' 'a{x' 'a{1}' '^{' '({)' 'a|{' 'a{,2}' 'a}' '()' 'a{1,2' '\{' '[{]' 'a{2,3}' '[]{]'; do
  [[ "a{" =~ $re ]]; echo "$re $? ${BASH_REMATCH[0]}"
done
HOME='^a$'; [[ ~ =~ $HOME ]]; echo $?; [[ $HOME =~ ~ ]]; echo $?; [[ $HOME =~ ~/x ]]; echo $?
e=''; s='x'
[[ !($e) ]] && echo t1; [[ !($s) ]] || echo f2; [[ !(-n $s) ]] || echo f3
shopt -s extglob
[[ !($s) ]] && echo t4
shopt -u extglob
{ printf '.\000.\nab\n'; } | { mapfile L; echo ${#L[@]} "${L[0]}" "${L[1]}"; }
shopt -s failglob
echo *.ZZ; echo not-here
echo next-line
x=$(echo *.SS; echo in-subst); echo "[$x]"
