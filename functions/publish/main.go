// Command publish is PublishFunction, the custom resource that puts the
// page in the frontend bucket (package sitepub).
package main

import "tessera/functions/sitepub"

func main() { sitepub.Run() }
