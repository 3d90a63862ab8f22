set -e
echo begin
notacommand arg
echo unreachable
