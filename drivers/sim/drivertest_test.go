package sim_test

import (
	"testing"

	"github.com/buddi-dev/buddi/drivers/drivertest"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestDriverContract(t *testing.T) {
	drivertest.Run(t, sim.New(sim.Config{}), drivertest.Site{
		Links: sim.Origin + "/p/7", Link: "Deals",
		Form: sim.Origin + "/form/3", Field: "Name", Choice: "Country", Option: "Italy", Button: "Send",
	})
}
