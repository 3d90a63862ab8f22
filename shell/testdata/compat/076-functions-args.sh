greet() { echo "hello, $1 ($# args)"; }
greet alice
greet "bob smith" extra
