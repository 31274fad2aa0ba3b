"""Word banks of the offering's world (data only): what a company that sells meal kits, solar
power or tenant screening talks about. Keyed like engine.language.domains.WORLDS; the customer's
side (who they are, where they gather, when they are busy) is engine.writing.trades.

Fields: `pain` (the problem, a noun phrase: "lose time to {pain}"), `outcome` (the promise, a noun
phrase: "want {outcome}"), `tools` (what the product plugs into), `features` (landing-page lines)
and `things` (what the company handles, plural: "menus", "delivery windows"). A `{moment}` slot is
filled from the trade ("after a night shift"), so the two worlds meet in one phrase.
"""

from __future__ import annotations

# fmt: off
WORLD_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "meals": {
        "pain": ("dinner from a vending machine {moment}", "cooking from scratch {moment}",
                 "meal plans that fall apart by Wednesday", "deliveries that arrive after the shift starts"),
        "outcome": ("a hot meal ready {moment}", "a week of dinners planned in five minutes",
                    "delivery windows that fit the rota", "less food thrown away"),
        "tools": ("menu planner", "delivery slots", "allergen labels"),
        "features": ("Pick five meals for the week in one go", "Choose a delivery window that fits your shift",
                     "Allergens marked on every menu"),
        "things": ("menus", "delivery windows", "meal boxes"),
    },
    "drinks": {
        "pain": ("stale coffee {moment}", "a kettle queue at every break", "running out before the week ends"),
        "outcome": ("a fresh cup {moment}", "a cupboard that never runs dry", "the blend they like, every time"),
        "tools": ("tasting notes", "reorder reminders", "roast calendar"),
        "features": ("Choose a blend and a grind", "Pause or skip any delivery", "Tasting notes with every bag"),
        "things": ("blends", "deliveries", "tasting notes"),
    },
    "energy": {
        "pain": ("diesel bills that eat the margin", "power cuts {moment}", "meters read by hand",
                 "bills nobody can explain"),
        "outcome": ("power that lasts through the evening", "half the diesel bill", "a meter that reads itself",
                    "a bill they can predict"),
        "tools": ("smart meters", "mobile money", "maintenance log"),
        "features": ("See today's power use at a glance", "An alert before the battery runs low",
                     "Pay for power by phone"),
        "things": ("panels", "batteries", "meter readings"),
    },
    "farming": {
        "pain": ("rotation plans kept in a notebook", "a season lost to one wrong planting date",
                 "soil tests nobody reads", "weather that changes the plan overnight"),
        "outcome": ("a rotation planned for three seasons", "steadier harvests", "planting dates they can trust",
                    "healthier soil year on year"),
        "tools": ("weather feed", "field map", "soil tests"),
        "features": ("Plan every field's rotation on one map", "A planting reminder a week ahead",
                     "Soil results in plain words"),
        "things": ("fields", "rotations", "planting dates"),
    },
    "care": {
        "pain": ("appointments that clash {moment}", "results that take a week to arrive",
                 "check-ups put off for months", "paperwork before every visit"),
        "outcome": ("a check-up booked in one message", "results the same week", "care that fits around work",
                    "fewer missed appointments"),
        "tools": ("appointment calendar", "SMS reminders", "consent forms"),
        "features": ("Book a visit in two taps", "A reminder the day before", "Results explained in plain words"),
        "things": ("appointments", "check-ups", "results"),
    },
    "fitness": {
        "pain": ("classes timed for someone else's week", "sessions skipped {moment}", "training alone with nobody to keep them going"),
        "outcome": ("a class that fits {moment}", "three sessions a week that stick", "progress they can see"),
        "tools": ("class timetable", "booking calendar", "progress log"),
        "features": ("Book a class in one tap", "A plan that adapts to missed sessions", "Progress on one page"),
        "things": ("classes", "sessions", "instructors"),
    },
    "bookings": {
        "pain": ("bookings juggled over text", "no-shows nobody chases", "a calendar kept in three places",
                 "shift swaps agreed in the corridor"),
        "outcome": ("a full calendar without phone tag", "fewer no-shows", "swaps settled in one message",
                    "one calendar everyone trusts"),
        "tools": ("calendar sync", "SMS reminders", "payments"),
        "features": ("Book or swap in one message", "Reminders that cut no-shows", "One calendar for the whole team"),
        "things": ("bookings", "calendars", "reminders"),
    },
    "money": {
        "pain": ("invoices chased by hand", "tax deadlines found the night before", "receipts lost in inboxes",
                 "claims that take months to pay"),
        "outcome": ("invoices paid within a week", "filing done before the deadline", "books that balance",
                    "a claim paid in days"),
        "tools": ("bank feed", "invoicing", "tax calendar"),
        "features": ("Send an invoice in a minute", "A reminder before every deadline", "Receipts matched automatically"),
        "things": ("invoices", "receipts", "deadlines"),
    },
    "learning": {
        "pain": ("evenings spent on lesson planning", "progress nobody can see", "lessons at times that never fit",
                 "courses dropped after week two"),
        "outcome": ("lessons planned by Sunday noon", "progress they can see", "a lesson at a time that fits",
                    "a course finished, not abandoned"),
        "tools": ("lesson planner", "progress tracker", "class calendar"),
        "features": ("Plan a week of lessons in one sitting", "Progress in plain words", "Lessons at a time that fits"),
        "things": ("lessons", "courses", "progress reports"),
    },
    "fashion": {
        "pain": ("clothes priced out of reach", "fittings booked around work", "alterations that run late",
                 "kids outgrowing uniforms every term"),
        "outcome": ("an outfit that fits the day", "half the usual price", "alterations done on time",
                    "a uniform that lasts the year"),
        "tools": ("size guide", "fitting calendar", "returns"),
        "features": ("Find your size in one step", "Free alterations on every order", "Returns collected from your door"),
        "things": ("sizes", "fittings", "orders"),
    },
    "weddings": {
        "pain": ("quotes that double once you say 'wedding'", "suppliers who never reply",
                 "a budget gone before the flowers"),
        "outcome": ("a wedding on budget", "suppliers booked in one afternoon", "flowers that match the day"),
        "tools": ("budget sheet", "supplier list", "guest list"),
        "features": ("One price, agreed up front", "Every supplier in one list", "A budget that updates itself"),
        "things": ("quotes", "suppliers", "budgets"),
    },
    "bikes": {
        "pain": ("bikes off the road for days", "punctures {moment}", "repairs that cost a day's pay"),
        "outcome": ("a bike back on the road by noon", "a spare bike while theirs is fixed", "repairs priced up front"),
        "tools": ("repair log", "parts stock", "pickup calendar"),
        "features": ("Book a repair in one message", "A spare bike while yours is fixed", "Prices shown before we start"),
        "things": ("repairs", "spare bikes", "parts"),
    },
    "repairs": {
        "pain": ("a broken phone for a week", "repairs that cost more than a new one", "guessing which repair shop to trust"),
        "outcome": ("a repair done the same day", "a repair priced up front", "a repair that comes with a warranty"),
        "tools": ("repair tracker", "parts stock", "warranty log"),
        "features": ("A fixed price before we open it", "Same-day repairs", "A warranty on every fix"),
        "things": ("repairs", "parts", "warranties"),
    },
    "routes": {
        "pain": ("routes planned the night before", "drops missed because of one road closure",
                 "fuel burned on empty miles"),
        "outcome": ("routes that hold all day", "every drop made on time", "fewer empty miles"),
        "tools": ("route planner", "driver app", "proof of delivery"),
        "features": ("Plan tomorrow's routes in one click", "Live changes when a road closes",
                     "Proof of delivery on every drop"),
        "things": ("routes", "drops", "delivery slots"),
    },
    "pets": {
        # walking, grooming and boarding share this world: every line fits all three
        "pain": ("a pet left alone all day", "pet care booked weeks ahead", "a pet that waits by the door until evening"),
        "outcome": ("a happy, tired pet by evening", "pet care booked for this week in one message",
                    "a carer their pet already knows"),
        "tools": ("visit calendar", "photo updates", "pet profiles"),
        "features": ("Book a visit in one tap", "A photo after every visit", "One profile for each pet"),
        "things": ("visits", "bookings", "pet profiles"),
    },
    "childcare": {
        "pain": ("hunting for childcare {moment}", "a sitter cancelled at the last minute", "nurseries that close at six"),
        "outcome": ("childcare that fits the rota", "a trusted sitter booked in minutes", "cover {moment}"),
        "tools": ("sitter profiles", "booking calendar", "background checks"),
        "features": ("Checked sitters near you", "Cover booked around your shifts", "Updates while you work"),
        "things": ("sitters", "bookings", "checks"),
    },
    "laundry": {
        "pain": ("weekends lost to the washing pile", "a laundrette trip that eats an evening",
                 "clean clothes that never get folded"),
        "outcome": ("clothes back clean and folded the next day", "weekends free of the washing",
                    "a pickup booked in one message"),
        "tools": ("pickup calendar", "bag tags", "payments"),
        "features": ("Book a pickup in one message", "Back clean and folded within a day",
                     "A text when the van is on its way"),
        "things": ("pickups", "laundry bags", "loads"),
    },
    "homes": {
        "pain": ("jobs booked by phone tag", "visits that run over", "quotes that change on the day",
                 "plants that die while nobody looks"),
        "outcome": ("a visit booked in one message", "jobs done the same week", "a price agreed before the van arrives",
                    "a home that looks after itself"),
        "tools": ("booking calendar", "job notes", "payments"),
        "features": ("Book a visit in one message", "A fixed quote before we arrive", "Photos when the job is done"),
        "things": ("visits", "quotes", "jobs"),
    },
    "housing": {
        "pain": ("rent chased by hand", "repairs reported and then forgotten", "tenants checked with guesswork"),
        "outcome": ("rent paid on the first", "repairs fixed within a week", "tenants they can trust"),
        "tools": ("rent ledger", "repair log", "tenancy documents"),
        "features": ("Report a repair in one photo", "Rent reminders before the first", "Every document in one place"),
        "things": ("tenancies", "repairs", "rent payments"),
    },
    "software": {
        "pain": ("releases held up by manual checks", "dashboards nobody trusts", "alerts that fire at 3 a.m.",
                 "a fridge that warms up unnoticed"),
        "outcome": ("releases on Fridays without fear", "numbers the team trusts", "quiet on-call weeks",
                    "an alert before anything spoils"),
        "tools": ("issue tracker", "chat", "CI pipeline"),
        "features": ("One dashboard for every check", "An alert only when it matters", "History you can search"),
        "things": ("dashboards", "alerts", "checks"),
    },
    "stock": {
        "pain": ("stock that spoils before it sells", "orders placed from memory", "regulars who drift away"),
        "outcome": ("less waste by Friday", "orders placed before anything runs out", "regulars who come back"),
        "tools": ("point of sale", "stock sheet", "supplier orders"),
        "features": ("Stock counted in minutes", "A reorder list every morning", "Rewards that bring regulars back"),
        "things": ("stock counts", "orders", "regulars"),
    },
    "marketplace": {
        "pain": ("good gear sold for nothing", "buyers who never turn up", "listings that take an evening"),
        "outcome": ("a fair price in a week", "buyers who pay before they collect", "a listing in two minutes"),
        "tools": ("listings", "payments", "buyer messages"),
        "features": ("List an item in two minutes", "Payment held until it arrives", "Fair prices from real sales"),
        "things": ("listings", "buyers", "sales"),
    },
    "media": {
        "pain": ("editing that eats the weekend", "episodes that go out late", "admin that eats studio time"),
        "outcome": ("an episode ready by Monday", "more hours at the work itself", "a release calendar that holds"),
        "tools": ("shared drive", "release calendar", "invoicing"),
        "features": ("Upload raw, get it back edited", "A release calendar that holds", "Show notes written for you"),
        "things": ("episodes", "edits", "release dates"),
    },
    "legal": {
        "pain": ("checklists kept in someone's head", "a contract rewritten for every client",
                 "an audit found the week before"),
        "outcome": ("an audit passed without panic", "a contract ready in ten minutes", "every rule ticked off in time"),
        "tools": ("document store", "audit log", "e-signature"),
        "features": ("A checklist that updates when the rules do", "Templates checked by a lawyer",
                     "An audit trail for every change"),
        "things": ("checklists", "contracts", "audits"),
    },
    "travel": {
        "pain": ("bookings lost between channels", "tours cancelled by the weather", "guests who cannot find the start"),
        "outcome": ("no double bookings", "a tour that runs rain or shine", "guests who arrive on time"),
        "tools": ("booking calendar", "weather feed", "payments"),
        "features": ("Book a place in one step", "A weather plan for every trip", "Directions sent the day before"),
        "things": ("tours", "bookings", "guests"),
    },
    "careers": {
        "pain": ("applications that vanish without an answer", "forms in a language they do not read",
                 "deadlines missed for lack of time"),
        "outcome": ("an interview within a month", "every form understood", "an application in before the deadline"),
        "tools": ("application tracker", "document templates", "deadline calendar"),
        "features": ("A plan for every application", "Forms explained line by line", "A reminder before each deadline"),
        "things": ("applications", "forms", "deadlines"),
    },
    "community": {
        "pain": ("things thrown away that one screw would fix", "events nobody hears about", "volunteers who drift off"),
        "outcome": ("a full room every month", "less thrown away", "volunteers who stay"),
        "tools": ("event calendar", "volunteer rota", "newsletter"),
        "features": ("Every event on one page", "A rota volunteers can swap", "A reminder the night before"),
        "things": ("events", "volunteers", "repairs"),
    },
    "general": {
        "pain": ("work done by hand that should take minutes", "customers lost to slow replies",
                 "guesswork where a number should be"),
        "outcome": ("an afternoon back every week", "replies the same day", "decisions on data"),
        "tools": ("email", "calendar", "payments"),
        "features": ("Set it up in one sitting", "See what changed this week", "Replies the same day"),
        "things": ("orders", "replies", "accounts"),
    },
}
# fmt: on


def world_words(world: str) -> dict[str, tuple[str, ...]]:
    """The bank of one offering world (the general one when the pitch fits none)."""
    return WORLD_WORDS.get(world, WORLD_WORDS["general"])
