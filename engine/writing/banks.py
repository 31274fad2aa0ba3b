"""Hand-written fragments for the simulated workers (data only): per industry, per founder
archetype and per stage. `engine.writing.phrases.Voice` fills them; `engine.writing.simulate` decides which.

Slots: {company} {customer} {offering} {product} {pain} {outcome} {unit} {place} {rival} {decision} {niche}
{n} {weeks} {price} {beat} {goal} {move}; {a:slot} adds an article; <verb> (singular form: <loses>) agrees with the customer.
"""

from __future__ import annotations

# Stage openers for the summary (one per beat, several variants).
STAGE_OPENERS: dict[str, tuple[str, ...]] = {
    "YOU": (
        "This is what the founding team brings to {customer}, and what it does not.",
        "Before anything is built, here is why {company} is the team to serve {customer}.",
        "Our unfair advantage with {customer} is sharper than it looks.",
    ),
    "NEED": (
        "{cap_customer} {lose_time_to} {pain}; that is the need we start from.",
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
        "A one-page loop: {customer} <sees> the promise, the price and one button.",
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
    "Your call was to {decision}; every number in this plan for {customer} assumes it.",
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
        "We keep the {product} build small enough to ship in a fortnight.",
        "Each piece is one loop {customer} can try, and we can fix within a week.",
        "Nothing gets built for {customer} that we cannot measure by Friday.",
        "The next {product} release is scoped to what two people can ship.",
        "We build the part each {unit} touches first, and nothing else yet.",
        "Every change to the {tool} is tried with one {unit} before the rest.",
    ),
    "seller": (
        "Every step ends with a conversation with {customer} that can close.",
        "We judge it by one thing: does {a:unit} say yes to {company}.",
        "Each line is something we can say on a sales call with {customer}.",
        "If {a:unit} will not pay for it, it waits.",
        "Each {unit} we sign tells us which {thing} to sell next.",
        "The price goes in the first line, because each {unit} asks about it first.",
    ),
    "designer": (
        "Every screen {customer} <sees> earns its place or goes.",
        "We keep the {product} experience calm and the words plain.",
        "One thing per screen, so {customer} never <has> to guess.",
        "Each detail is tested with {a:unit} before it ships.",
        "The {thing} read the way {customer} talk about them.",
        "Nothing on the page needs explaining {moment}.",
    ),
    "operator": (
        "Each {product} step has an owner and a time limit.",
        "We measure it weekly and fix the slowest step for {customer} first.",
        "Every handover for {customer} is written down once and followed.",
        "The {unit} count, the cost per {unit} and the time per {unit} are tracked weekly.",
        "Every problem with {thing} gets a cause written down before it gets a fix.",
        "We run the {thing} from one checklist, reviewed every Monday.",
    ),
}

AUDIENCE = (
    "{cap_customer} who {lose_time_to} {pain}",
    "{cap_customer} who <wants> {outcome} and <has> no time to set it up",
    "{cap_customer} tired of {pain}",
)
PROBLEM = (
    "{cap_customer} {lose_time_to} {pain}, and nothing they try fits how they work.",
    "Today {customer} <juggles> {pain}; the tools on offer were built for someone else.",
    "{cap_customer} <wants> {outcome}, yet every week starts with {pain}.",
)
VALUE = (
    "{company} gives {customer} {a:offering}, and with it {outcome}.",
    "With {company}, {customer} <gets> {outcome} from {a:offering} they can start this week.",
    "{cap_offering} from {company}: {outcome}, without the setup.",
)
BENEFIT = (
    "{cap_outcome}, within {weeks_word} weeks of the first order",
    "{cap_outcome}, measured from the first {unit}",
    "{cap_outcome}, or the first month is free",
)
OBJECTIVES = (
    "Prove that {customer} will pay for {a:offering}",
    "Win the first ten {unit_plural} before {rival} does",
    "Put numbers on the promise: {outcome}",
)
HEADLINES = (
    "{cap_outcome} for {customer}",
    "{cap_offering} for {customer}, set up in a day",
    "{cap_customer}: {outcome}, starting this week",
)
FEATURES = (
    "A weekly summary for each {unit}",
    "Start with your first {thing} in one sitting",
    "One price for each {unit}, shown before you start",
    "A person who answers each {unit} within the hour",
)
CTAS = ("Start a pilot", "Book a call", "Join the pilot", "See the price")
WIREFRAMES = (
    "Headline, three proof points from {unit_plural}, the price, one button.",
    "Promise first, then price, then one quote from {a:unit} in the pilot.",
    "One screen for {customer}: what {company} offers, what it costs, how to start.",
)
EMAIL_OPENERS = (
    "Hi, we built {company} for {customer} who <is> tired of {pain}.",
    "Hello, we hear a lot about {pain}; {company} was built for exactly that.",
    "Hi, {company} helps {customer} get {outcome}.",
)
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
    "For {customer}: {outcome}, from the first week",
    "{company} for {customer}: {outcome}",
)
CHURN_DRIVERS = (
    "Slow first value for a new {unit}",
    "Setup friction with the {tool}",
    "Support replies that take too long for {customer}",
    "Price surprises when {a:unit} renews",
    "The {tool} never set up for {a:unit}",
    "No one owns the {thing} for {a:unit}",
    "{cap_customer} still {losing_time_to} {pain}",
    "A rival offer from {rival}",
    "Seasonal lulls for each {unit}",
    "No clear result for {a:unit} in the first month",
    "{cap_thing} that stop matching what each {unit} needs",
    "A price that rises faster than the value of the {thing}",
    "Nobody tells {a:unit} what changed",
    "The {tool} breaking at the worst moment",
    "{cap_unit_plural} who never heard back about their {thing}",
)
LOOPS = (
    "A weekly check-in with each {unit} about the {thing}",
    "A monthly digest for {customer}: how close they are to {outcome}",
    "A call with every {unit} we have not heard from in two weeks",
    "A quarterly review with the five biggest {unit_plural}",
    "A check on the {tool} every Monday",
    "A thank-you note to each {unit} after the first month",
    "An open evening for {customer}, announced through {place}",
    "A shared board of what {customer} asked for and what shipped",
    "A renewal call a month before each {unit} renews",
    "A short note to {customer} when their {thing} change",
    "A check on the {tool} after each {unit} joins",
    "A monthly review of the {thing} every {unit} uses most",
    "A first-month call with each new {unit}",
    "A monthly tip for each {unit} on getting more from the {tool}",
    "A list of quiet {unit_plural}, reviewed every Friday",
)
NPS = (
    "Ask {customer} monthly; call every detractor within {n} days.",
    "A two-question survey after each {unit}'s first month; detractors get a call within {n} days.",
)
SUPPORT = (
    "Triage every {unit} ticket within one hour",
    "Resolve or escalate questions about {thing} the same day",
    "Follow up with {a:unit} once it is fixed",
    "Log each fix in the {company} playbook",
    "Answer {customer} in the channel they wrote from",
    "Escalate anything about {pain} to the founder",
    "Close each week reviewing the three slowest tickets about {thing}",
    "Check the {tool} before replying",
    "Write one help article for every repeated question about {thing}",
    "Reply {moment} as well as in office hours",
    "Keep a list of the ten questions asked most about {thing}",
    "Fix the {tool} first when it breaks, then explain",
    "Send {a:unit} a note when the ticket closes",
    "Hand anything about the price of {thing} to the founder the same day",
    "Share what each {unit} asked this week with the builder every Friday",
)

# The channels a simulated marketer plans (three a stage).
CHANNELS = (
    "founder outbound",
    "partner referrals",
    "{place}",
    "a pilot with one {unit}",
    "short how-to videos",
    "a newsletter for {customer}",
)

# A warm tone (engine.writing.realise): a closing line for the work's summary-like field, and the
# headline said to the reader.
WARM_LINES = (
    "We built this with {customer} in mind, and we would love to hear how it works for you.",
    "If anything gets in your way, tell us and we will fix it with you.",
    "You tell us what works for you; we keep making it better together.",
)
WARM_HEADLINES = (
    "{headline}, made with you in mind",
    "{headline}, built around you",
)
