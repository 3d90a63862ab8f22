set -e
false || true
echo survived
if false; then echo no; fi
echo still
false && echo no
echo after-and
! false
echo after-bang
