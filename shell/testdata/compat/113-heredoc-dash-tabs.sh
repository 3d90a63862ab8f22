cat <<-EOF
	indented
		double
	EOF
echo end
