cat > report.awk <<'EOF'
BEGIN { FS = "," }
NR > 1 { total[$4] += $2 * $3; n++ }
END {
  printf "%d rows\n", n
  printf "Berlin %.2f\n", total["Berlin"]
}
EOF
awk -f report.awk data.csv
