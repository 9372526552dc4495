class_name PartnerTakesLeadEvent
extends MatchEvent
## The last player to play went out and all passed: their partner leads.

## The partner who leads.
var seat: int
