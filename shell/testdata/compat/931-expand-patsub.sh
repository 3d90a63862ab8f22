# ${x//pat/rep} edge cases: a pattern starting with /, empty anchored
# patterns, [^]] in a substitution, unmatched globs keeping backslashes
x='/_/'; echo ${x////c} ${x//'/'/c} ${x///} ${x//} ${x///c} ${x/////}
p=/foo/bar; echo ${p////\\/} "${p////$x}" ${p///"$x"/Q} ${p////"x/y"}
a=(/a/b /c); echo ${a[0]////-} ${a[@]////-} ${a[@]/#/x} ${a[@]/%/y}
y=a/b; e=; echo ${y///c} ${y/#/c} ${y/#//c} ${y/%//c} "[${e/#/c}]" "[${unset/#/c}]"
s='ab^cd^]'; pat='[^]]'; echo ${s//$pat/z} ${s#$pat} "${s//[]]/z}"
case a in $pat) echo case-not-bracket;; esac
v='[\f]'; b='\f'; echo ${v/"$b"/_} ${v/$b/_} ${v/\f/_} ${v/\\f/_}
touch 'a*b' ab; g='a\*b'; echo $g; g='a\*'; echo $g; g='[\_]'; echo $g; g='a*'; echo $g
