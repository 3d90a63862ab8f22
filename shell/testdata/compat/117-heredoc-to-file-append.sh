cat > list.txt <<EOF
one
EOF
cat >> list.txt <<EOF
two
EOF
cat list.txt
