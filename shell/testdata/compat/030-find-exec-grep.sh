find src -name '*.go' -exec grep -l TODO {} \; | sort
