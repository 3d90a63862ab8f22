grep -rn "func main" --include=*.go .
