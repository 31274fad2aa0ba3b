"""Hand-written fragments for the simulated workers (data only): per industry, per founder
archetype and per stage. `engine.writing.phrases.Voice` fills them; `engine.writing.simulate` decides which.

Slots: {company} {customer} {offering} {pain} {outcome} {unit} {place} {rival} {decision} {niche}
{n} {weeks} {price} {beat} {goal} {move}; {a:slot} adds an article; <verb> (singular form: <loses>) agrees with the customer.
"""

from __future__ import annotations

# industry -> fields -> variants
INDUSTRY: dict[str, dict[str, tuple[str, ...]]] = {
    "health": {
        "pain": (
            "hours of paperwork between shifts",
            "missed appointments nobody chases",
            "rota gaps found too late",
        ),
        "outcome": ("fewer no-shows", "an hour back every shift", "calmer handovers"),
        "unit": ("clinic", "ward", "practice"),
        "place": (
            "practice-manager forums",
            "the regional nursing network",
            "clinic owner meetups",
        ),
        "tools": ("calendar", "patient records export", "SMS reminders"),
    },
    "food": {
        "pain": (
            "stock that spoils before it sells",
            "orders taken on scraps of paper",
            "a rush hour with no time to eat",
        ),
        "outcome": (
            "less waste by Friday",
            "orders that arrive when promised",
            "a warm cup in the small hours",
        ),
        "unit": ("kitchen", "café", "order"),
        "place": ("local food markets", "the night-shift break rooms", "chef group chats"),
        "tools": ("point of sale", "delivery apps", "inventory sheet"),
    },
    "farming": {
        "pain": (
            "harvest plans kept in a notebook",
            "power cuts during irrigation",
            "buyers who pay sixty days late",
        ),
        "outcome": ("steadier harvests", "pumps that run at dawn", "paid on delivery"),
        "unit": ("farm", "cooperative", "field"),
        "place": ("the grower cooperatives", "market-day stalls", "the extension officers"),
        "tools": ("weather feed", "mobile money", "sensor readings"),
    },
    "energy": {
        "pain": (
            "diesel bills that eat the margin",
            "outages that spoil stock",
            "meters read by hand",
        ),
        "outcome": (
            "power through the evening",
            "half the diesel bill",
            "a meter that reads itself",
        ),
        "unit": ("site", "household", "village grid"),
        "place": ("village councils", "installer networks", "the local cooperatives"),
        "tools": ("smart meters", "mobile money", "maintenance log"),
    },
    "education": {
        "pain": (
            "evenings lost to lesson planning",
            "parents who never see progress",
            "bookings juggled over text",
        ),
        "outcome": ("planning done by Sunday noon", "progress parents can see", "full classes"),
        "unit": ("school", "class", "teacher"),
        "place": ("teacher staff rooms", "parent associations", "district newsletters"),
        "tools": ("class calendar", "parent messaging", "gradebook export"),
    },
    "money": {
        "pain": (
            "invoices chased by hand",
            "tax deadlines found the night before",
            "receipts lost in inboxes",
        ),
        "outcome": ("paid within a week", "filing done before the deadline", "books that balance"),
        "unit": ("account", "practice", "freelancer"),
        "place": ("freelancer communities", "accountant referrals", "co-working spaces"),
        "tools": ("bank feed", "invoicing", "tax calendar"),
    },
    "fashion": {
        "pain": (
            "fittings booked around work",
            "dresses priced out of reach",
            "alterations that run late",
        ),
        "outcome": (
            "a dress that fits the day",
            "half the usual price",
            "alterations done on time",
        ),
        "unit": ("fitting", "boutique", "order"),
        "place": ("wedding fairs", "planner referrals", "bridal forums"),
        "tools": ("fitting calendar", "measurements sheet", "payments"),
    },
    "travel": {
        "pain": (
            "bikes off the road for days",
            "routes planned the night before",
            "bookings lost between channels",
        ),
        "outcome": ("back on the road by noon", "routes that hold", "no double bookings"),
        "unit": ("rider", "route", "booking"),
        "place": ("courier depots", "rider group chats", "tour operator fairs"),
        "tools": ("route planner", "booking calendar", "payments"),
    },
    "home": {
        "pain": ("jobs booked by phone tag", "visits that run over", "no one to call after hours"),
        "outcome": (
            "a visit booked in one message",
            "jobs done the same week",
            "someone who answers",
        ),
        "unit": ("household", "visit", "job"),
        "place": ("neighbourhood groups", "estate agents", "community boards"),
        "tools": ("booking calendar", "payments", "job notes"),
    },
    "creative": {
        "pain": ("admin that eats studio time", "late payers", "gigs found by luck"),
        "outcome": ("more hours at the work itself", "paid on time", "a steady calendar"),
        "unit": ("project", "studio", "commission"),
        "place": ("artist collectives", "portfolio communities", "studio open days"),
        "tools": ("portfolio", "invoicing", "calendar"),
    },
    "software": {
        "pain": ("releases held up by manual checks", "dashboards nobody trusts", "on-call nights"),
        "outcome": (
            "releases on Fridays without fear",
            "numbers the team trusts",
            "quiet on-call weeks",
        ),
        "unit": ("team", "seat", "workspace"),
        "place": ("developer meetups", "open-source forums", "engineering newsletters"),
        "tools": ("issue tracker", "chat", "CI pipeline"),
    },
    "general": {
        "pain": (
            "work done by hand that should take minutes",
            "customers lost to slow replies",
            "guesswork where a number should be",
        ),
        "outcome": ("an afternoon back every week", "replies the same day", "decisions on data"),
        "unit": ("account", "team", "site"),
        "place": ("local business groups", "trade associations", "the founder's network"),
        "tools": ("email", "calendar", "payments"),
    },
}

# Stage openers for the summary (one per beat, several variants).
STAGE_OPENERS: dict[str, tuple[str, ...]] = {
    "YOU": (
        "This is what the founding team brings to {customer}, and what it does not.",
        "Before anything is built, here is why {company} is the team to serve {customer}.",
        "Our unfair advantage with {customer} is sharper than it looks.",
    ),
    "NEED": (
        "{cap_customer} <loses> time to {pain}; that is the need we start from.",
        "Ten conversations in, one need keeps coming back: {pain}.",
        "The need is plain once you listen to {customer}: {pain}.",
    ),
    "GO": (
        "Here is how {company} stands apart from {rival} in front of {customer}.",
        "The wedge: {offering} for {customer}, positioned where {rival} cannot follow.",
        "We position {company} on the one promise {rival} cannot copy.",
    ),
    "SEARCH": (
        "The first landing page for {offering} is ready to show {customer}.",
        "A one-page loop: {customer} see the promise, the price and one button.",
        "The MVP page is small on purpose, so {customer} can say yes in a minute.",
    ),
    "FIND": (
        "Launch plan for {offering}: three channels, each with a cost we can check.",
        "We go where {customer} already gather, starting with {place}.",
        "The launch email and channel plan for {customer} are drafted and costed.",
    ),
    "TAKE": (
        "The operating plan for {company}: support, retention and the burn behind them.",
        "Support load is growing; this plan keeps {customer} served without burning out.",
        "Here is what it costs to keep every {unit} happy, and how we pay for it.",
    ),
    "RETURN": (
        "The loop comes home: {customer} get a say in how {company} runs.",
        "We hand the cadence back to the people who run it every day.",
        "A steady weekly rhythm the team and {customer} can both keep.",
    ),
    "CHANGE": (
        "The ownership question, laid out for {customer} and the team.",
        "Who should own {company} next, and what each answer costs.",
        "The last plan: the money, the owners, and the promise to {customer}.",
    ),
}

# How a worker says it follows the binding decision (the decision is a verb phrase).
FOLLOW_LINES = (
    "Because you chose to {decision}, the {beat} plan for {customer} is built around it.",
    "Your call was to {decision}; every {beat} number for {customer} assumes it.",
    "We {decision}, as you decided, and the {beat} work cuts what does not fit {customer}.",
    "Following your decision, the {beat} work for {customer} is to {decision}.",
)
THREAD_LINES = (
    "{rival} {move}, so the {beat} promise to {customer} stays narrow.",
    "After {rival} answered us, the {beat} plan keeps to what {customer} can check.",
    "With {rival} pressing, the {beat} plan defends the ground we hold with {customer}.",
)
NICHE_LINES = (
    "The {beat} work speaks only to {niche}, as you asked.",
    "Everything in the {beat} plan is for {niche} now; the rest waits.",
)

# Archetype voice: one line of the founder's craft per artifact.
ARCHETYPE_LINES: dict[str, tuple[str, ...]] = {
    "builder": (
        "We keep the {offering} build small enough to ship in a fortnight.",
        "Each piece is one loop {customer} can try, and we can fix within a week.",
        "Nothing gets built for {customer} that we cannot measure by Friday.",
        "The next {offering} release is scoped to what two people can ship.",
    ),
    "seller": (
        "Every step ends with a conversation with {customer} that can close.",
        "We judge it by one thing: does a {unit} say yes to {company}.",
        "Each line is something we can say on a sales call with {customer}.",
        "If a {unit} will not pay for it, it waits.",
    ),
    "designer": (
        "Every screen {customer} see earns its place or goes.",
        "We keep the {offering} experience calm and the words plain.",
        "One thing per screen, so {customer} never have to guess.",
        "Each detail is tested with a {unit} before it ships.",
    ),
    "operator": (
        "Each {offering} step has an owner and a time limit.",
        "We measure it weekly and fix the slowest step for {customer} first.",
        "Every handover for {customer} is written down once and followed.",
        "The {unit} count, the cost per {unit} and the time per {unit} are tracked weekly.",
    ),
}

AUDIENCE = (
    "{cap_customer} who <loses> time to {pain}",
    "{cap_customer} who want {outcome} and have no time to set it up",
    "{cap_customer} tired of {pain}",
)
PROBLEM = (
    "{cap_customer} <loses> time to {pain}, and nothing they try fits how they work.",
    "Today {customer} <juggles> {pain}; the tools on offer were built for someone else.",
    "{cap_customer} <wants> {outcome}, yet every week starts with {pain}.",
)
VALUE = (
    "{company} gives {customer} {a:offering} that delivers {outcome}.",
    "With {company}, {customer} get {outcome} from {a:offering} they can start this week.",
    "{cap_offering} from {company}: {outcome}, without the setup.",
)
BENEFIT = (
    "{cap_outcome} within {weeks} weeks",
    "{cap_outcome}, measured from the first {unit}",
    "{cap_outcome} before the first invoice",
)
OBJECTIVES = (
    "Prove that {customer} will pay for {a:offering}",
    "Win the first ten {unit_plural}",
    "Show {outcome} for {customer} with real numbers",
)
HEADLINES = (
    "{cap_outcome} for {customer}",
    "{cap_offering} for {customer}, set up in a day",
    "{cap_customer}: {outcome}, starting this week",
)
PLAIN_HEADLINES = ("{cap_offering} for {customer}", "For {customer}: {outcome}")
FEATURES = (
    "Set up a {unit} in one sitting",
    "See {outcome} on one screen",
    "A weekly summary for each {unit}",
    "An early warning about {pain}",
)
CTAS = ("Start a pilot", "Book a call", "Join the pilot", "See the price")
WIREFRAMES = (
    "Headline, three proof points from {unit_plural}, the price, one button.",
    "Promise first, then price, then one quote from a {unit} in the pilot.",
    "One screen for {customer}: what {offering} does, what it costs, how to start.",
)
EMAIL_OPENERS = (
    "Hi, we built {company} for {customer} who are tired of {pain}.",
    "Hello, if {pain} sounds familiar, {company} was built for you.",
    "Hi, {company} helps {customer} get {outcome}.",
)
EMAIL_PLAIN = ("Hi, {company} helps {customer} with {pain}.",)
EMAIL_PROOF = (
    "In our pilot, {n} {unit_plural} saw the first result within {weeks} weeks.",
    "{n} {unit_plural} tried it in the pilot; most kept using it after week {weeks}.",
)
EMAIL_CTA = (
    "Reply to this email and {company} will set up your pilot this week.",
    "Book fifteen minutes with the {company} team: [link]",
    "Start the {company} pilot here: [link]",
)
SUBJECTS = (
    "{cap_outcome}, for {customer}",
    "For {customer}: {a:offering} that works",
    "{company}: {outcome}",
)
CHURN_DRIVERS = (
    "Slow first value for a new {unit}",
    "Setup friction with the {tool}",
    "Support replies that take too long for {customer}",
    "Price surprises at renewal",
    "A {unit} that never finished setup",
    "No one at the {unit} owns the account",
    "{cap_customer} still losing time to {pain}",
    "A rival offer from {rival}",
    "Seasonal lulls at each {unit}",
)
LOOPS = (
    "A weekly check-in with each {unit}",
    "A monthly digest for {customer}: how close they are to {outcome}",
    "A call with every {unit} that goes quiet for two weeks",
    "A quarterly review with the five biggest {unit_plural}",
    "A {beat} check on the {tool} every Monday",
    "A thank-you note to each {unit} after its first month",
    "An open evening for {customer} at {place}",
    "A shared board of what {customer} asked for and what shipped",
    "A renewal call a month before each {unit} renews",
)
NPS = (
    "Ask {customer} monthly; call every detractor within {n} days.",
    "A two-question survey after each {unit}'s first month; detractors get a call within {n} days.",
)
SUPPORT = (
    "Triage every {unit} ticket within one hour",
    "Resolve or escalate the same day",
    "Follow up with the {unit} once it is fixed",
    "Log each fix in the {company} playbook",
    "Answer {customer} in the channel they wrote from",
    "Escalate anything about {pain} to the founder",
    "Close each week with the three slowest tickets reviewed",
    "Check the {tool} before replying",
    "Write one help article for every repeated question",
)

# What a redo says it changed, per topic.
CHANGED = {
    "price": "The price is now stated: {price} a month per {unit}.",
    "price_down": "The price drops from {old} to {new} a month per {unit}.",
    "price_up": "The price rises from {old} to {new} a month per {unit}.",
    "audience": "It now speaks to {audience} and no one else.",
    "claims": "The promises are cut back to what the pilot showed.",
    "tone": "The wording is plainer and shorter.",
    "scope": "The scope is narrower{about}.",
    "timeline": "The dates move {way}: breakeven in month {new} (was {old}).",
    "timeline_plain": "The timeline is restated with dates we can hold.",
    "channel": "The channels change: {new}.",
    "number": "{what} goes {way}: {new} (was {old}).",
    "decision": "It follows your standing decision again.",
    "include": "It now covers {subject}.",
    "vague": "We could not tell what to change from “{reason}”, so we only tightened the "
    "wording; tell us which part (price, audience, claims, tone, scope, timeline, "
    "channel or a number).",
}
