cat > lib.sh <<'EOF'
GREETING=hi
say() { echo "$GREETING $1"; }
EOF
. ./lib.sh
say there
GREETING=hello
source lib.sh
echo $GREETING
