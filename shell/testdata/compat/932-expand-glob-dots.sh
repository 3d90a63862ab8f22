# dotglob, GLOBIGNORE (colons inside [[:class:]], * not crossing /),
# globskipdots, extglob negation in file names
mkdir -p g/sub; cd g; touch .rc one.md one.txt sub/two.md sub/two.txt _x.py 'a b.log'
echo *; shopt -s dotglob; echo *; shopt -u dotglob
GLOBIGNORE='*.txt'; echo *.* sub/*.*
GLOBIGNORE='[[:alnum:]]*'; echo *.*
GLOBIGNORE='*[[:space:]]*:.r*'; echo *
GLOBIGNORE=; echo .*; shopt -u globskipdots; echo .*; shopt -p globskipdots
GLOBIGNORE=.:..; echo .*
unset GLOBIGNORE; shopt -s extglob
echo !(*.md|*.txt) sub/!(*.md) @(one|sub).!(txt) !(x)/ one.@(!(md))
shopt -s dotglob; echo !(one*)
