module sudokubot

go 1.26

require github.com/joho/godotenv v1.5.1

require (
	golang.org/x/image v0.33.0
	golang.org/x/text v0.31.0 // indirect
)
