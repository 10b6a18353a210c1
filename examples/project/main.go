// Package main is a tiny project for the example turn to look at.
package main

import "fmt"

func main() {
	// TODO: greet the user by name
	fmt.Println("hello")
}
