printf 'a\n\n\nb\n\nc\n' | sed '/^$/d'
