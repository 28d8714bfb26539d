module example.com/floors

go 1.26
