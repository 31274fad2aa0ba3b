"""Founding a venture: validate the player's start inputs, build the day-0 company, pick the tiers
(knowledge, cloud memory) that the settings allow."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import InputError
from engine.game import economy, pricing
from engine.game.antagonist import forge
from engine.game.archetypes import ARCHETYPE_RULES
from engine.game.models import ARCHETYPES, Founder, GameState
from engine.game.world import build_stages, handover_for
from engine.language.currency import currency_code, pitch_currency
from engine.language.grammar import capitals
from engine.language.pitch import company_name, unmarked
from engine.language.text import MAX_FIELD_CHARS, MAX_NAME_CHARS, MAX_PITCH_CHARS, clean_text
from engine.writing.simulate import customer_from_pitch
from worldforge_azurehttp import remote_deadline
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import content_words

if TYPE_CHECKING:
    from engine.config import Settings
    from knowledge import Knowledge
    from memory.foundry.cloud import CloudMemory

# The game's rules generation: a save made under another one is refused rather than replayed wrong.
# 4: the decisive-late-forks balance landed after another change had already claimed 3.
# 5: the pitch model reads the customer whole, with its setting apart ("night-shift nurses" at
#    "big city hospitals"), and names the company from the offering as written.
# 6: the simulated prose's grammar comes from inflect (articles, plurals, agreement, counts).
# 7: one name per meter ("Strain broke the team.", flaw costs name "strain"), so old messages differ.
# 8: typed directions bind the work from recalled memory (content, the gate's check, redos).
# 9: a named audience takes the old customer's place before an exclusion strips any sentence.
# 10: the revenue plan states its price and paying customers; a named price sets its numbers.
# 11: a redo's summary quotes a reason that ends in a full stop without adding a second one.
# 12: words from the offering's world and the customer's trade (engine/writing/worlds.py,
#     trades.py); the venture's problem, promise and priced unit hold across stages.
# 13: one tokenizer, stopword list and clip (worldforge_textkit) for the game, memory and search alike.
# 14: stage goals no longer carry the CEO's last call (it binds only from recalled memory).
# 15: "what changed" shows a list line that changed value as "Label: A → B" (the plan's price).
# 16: events and rival moves in the offering's world (engine/game/world_words.py); the revenue
#     plan's customers grow as a young company's do (slowing, about 1.8x to 2.5x in six months)
#     and its breakeven month is where revenue covers the burn.
# 17: the broad option binds "{customer} and others like them" (not "their neighbours in the trade").
# 18: a later "for" names who pays ("… for dogs, for solo groomers"); a realised direction's line
#     and the events are written in the venture's words; a standup without a playbook hit says so.
# 19: a trade that runs the offering's world as a business (groomers) has its own problem and
#     promise; the pets world handles visits and bookings, not walks; one email opener reworded.
# 20: typed escapes (\n, \x1b, \u200b), format placeholders and braces are not read as pitch words.
# 21: a realised scope reads "centred on the delivery window" (a bare singular noun takes "the").
# 22: the rival's words turn with each move, never the same line twice running.
# 23: a seeded DRIFT adds whole sentences (a full stop before "Also for …"); "Mentions of … were".
# 24: a niche's unit drops its article ("the the busiest person wedge"); "build it in-house, on our own stack".
# 29: the price customers pay is the venture's list price, then the last named one; it divides
#     revenue into paying customers (engine.game.pricing.PRICE).
# 31: balance retuned over 32 seeds (market share per stage, the ops stages' weight, the ownership
#     pivots at the median share, several rule numbers, the seed money, the builder's and the
#     seller's start).
# 32: market share per shipped stage 4.4 -> 5.0 (victories that end profitable: a quarter on
#     held-out seeds too); going alone raises threat 1 (was 3), an alliance cuts it 6 (was 8).
# 33: a scope centred on a segment and an exclusion of it lift each other (the later binds).
# 38: what the CEO leaves out is never drawn again (the problem and promise are redrawn from what
#     is left of the banks); a laundry world (the setting's "apartment" read laundry as housing).
# 39: the pets world's problem and promise fit walking, grooming and boarding alike; "own one
#     niche of {customer}" (was "one {customer} niche"); a pet company's best hire is a pet carer.
# 40: a narrowed customer is priced per the customer itself ("per hairdresser", never "per busiest
#     hairdresser"); "invoices paid within a week"; "what {company} offers" (plural offerings).
# 41: no problem starts with a negation ("lose time to no time to cook …", "no one to train with",
#     "no idea who to trust", "no childcare …" are rewritten); a price's
#     unit is read up to two words ("per ward team").
# 42: apprenticeships are careers ("matching" no longer reads as bookings), school leavers are
#     learners; a customer's leading article goes in French, Spanish, Italian ("les étudiants").
# 43: a runway of two years and more is said in years ("69 years of runway left", was "824.5 months").
# 44: the customer's and the offering's leading article come from one list (pitch._ARTICLES).
# 45: a price per thing bought reads so in the revenue plan ("$29 a repair", was "$29 a month").
# 46: "3 a.m. break" is no sentence end; the stage name is no adjective ("every GO number", "A RETURN
#     check"); an ops plan says its scope as a line ("A retention plan for …, centred on …").
# 47: a retired customer's trade is the elders' ("retired engineers" were priced "per team").
# 48: a thing's owners keep its noun ("vintage car owners", was "vintage owners"); handmade things are
#     sold by their makers ("furniture makers", was "handmade furniture who lose time …").
# 49: a participle after a plural head qualifies it ("people getting fit juggle"); three outcomes are
#     noun phrases ("a repair done the same day", was "Students: fixed the same day").
# 50: children's parents pay ("parents of kids with dyslexia", was "kids" priced per school); a flaw
#     that drops the price keeps the space before the next sentence.
# 51: plants are their own world (an office cleaning service wrote "plants that die while nobody
#     looks"; a watering app "visits that run over").
# 52: an own answer's reading names what it binds ("Binds the next work: price $14 a meal").
# 53: one pair of "which way" word lists for reasons and steering (reading.UP/DOWN/SOONER/LATER):
#     "more", "cheaper", "too much" now move a reason's number; "too optimistic", "smaller" a price.
# 54: a fork's price options scale the price customers pay now, in its unit (economy.arpu_usd):
#     "price low" after a named $19 a meal binds $10 a meal, no longer half the list price.
# 55: a scope keeps the CEO's article ("centred on the neighbourhood"); a later scope takes the
#     earlier one's line; a trade counts in the customer's own noun (riders, not drivers); a
#     worker writing for a wrong audience is caught even with a customer word left in.
# 56: a place the CEO names is the scope ("launch in Leeds first" centres the work on Leeds); a
#     price per thing bought offers the first one free, not a first month; a price in another
#     currency is asked about in dollars ("£25 a repair": say "$25 a repair").
# 57: a problem that already says the time is lost is struggled with ("students who struggle with
#     weekends lost to the washing pile", never "lose time to weekends lost to …"); learners'
#     problems are learners' (lessons that move on before it clicks), not lesson planning.
# 58: a place is its own axis ("start in Leeds"), bound beside the scope: a fork that centres the
#     work on forty interviews no longer drops the town the CEO said to start in.
# 59: a place's key result counts the customers who sign up ("the first students signed up,
#     starting in the West End"), not the trade's unit ("the first schools").
# 60: a price in GBP or EUR is asked about in dollars as £ and € are ("25 GBP a month" was read
#     as no price at all).
# 61: a pet-care world any pet business fits (a grooming van's customers had "a pet left alone all
#     day"); "the busiest couples", never "the busiest busy couples"; no "a pet owner that …".
# 62: a customer of a place of business takes "that" ("offices that want …", never "offices who
#     want"); an occasion is no customer ("family dinners" are bought by families, "weddings" by
#     engaged couples); "small businesses everywhere" is read as small businesses (never "one
#     small business everywhere", "everywheres"). Headless simulate names words that bind nothing.
#     "Cafés" inflect ("three cafés", was "three café"); broad, then flank: "the cafés Acme ignores
#     and others like them" (was "the cafés and others like them Acme ignores"). An own answer's
#     option words are no negation of it ("hold off on the launch" reads as polish, was ship);
#     a question's own word that names an option's idea still names it ("can't launch" → polish).
#     "No ads" binds (leave out ads) and lifts a channel it names ("paid ads" from the FIND fork
#     had made the redo that dropped them DRIFT); "no ads, only referrals" binds referrals.
#     "cut costs" is the burn, not a price cut; "spend less on ads" binds no ads channel;
#     "do not mention the NHS" binds only the exclusion (it centred the work on the NHS too).
#     An own answer that changes its mind ("ship, no wait, polish") is read from the change;
#     "price" names neither side of a fork ("price high, we need cash" read as the low price).
# 63: prices are the game's (engine.game.pricing): "under $80" charges $79.99 a month (one cent
#     under the bound), no longer the $75 the simulated worker writes; "under $50" $49.99, not $49.
#     Directions compose (engine.language.composition): a standup reply binds the next stage and
#     does not run it; one note can be forgotten (a recorded command); a fork option's audience
#     names no rival; premium and cheap never bind the price in force.
#     Every steering input is read by one parse (engine.language.reader): readings change, and
#     each bound direction carries the span of words it came from (start, end).
#     The pitch is read by one grammar over its words with its vocabulary as data (who pays, the
#     offering, the place); the new-venture form's confirmed offering, customer, place and
#     problem are recorded in the start and in RUN_STARTED, and the workers write about them.
#     A fork's options name a niche the CEO chose without its article ("in the busiest nurses
#     forum", never "in the the busiest …"); the rival's threat in a fork's pressure line is shown
#     as the meters show it (99.5 with 100 losing reads 99/100, not 100/100); the ops bank's
#     "Every {thing} problem" reads "Every problem with {thing}" ("Every regulars problem").
# 64: a memory prune archives every live note past its expiry day that it does not delete
#     (binding, a founder profile, important), with a `retention_archive` audit row; MEMORY_PRUNED
#     carries `archived_ids` and is written when a prune only archived.
#     Tone and length requests are realised: "shorter" cuts every long field to its core
#     sentence (the gate checks it by length), "warmer" adds a warm line from the bank, "plainer",
#     "more formal" and "bolder" take out jargon, contractions and hedges; "cut it down" reads as
#     "shorter". A fork option's scope is said in the customer's words on the landing page and in
#     the launch email (engine/game/scope_said.json), never the team's note pasted in.
# 65: steering readings change where a verb, a negation or a contrast was misread ("use Reddit"
#     is a channel, "don't drop X" leaves nothing out, "$45 rather than $30" binds $45); an own
#     answer's option is picked on the reader's one parse (engine.language.reader.pick); the
#     pitch is read on the reader's tokens ("1,500 meals" is one figure, no longer "1").
#     Artifacts cite what bound them (`cites`: each field a direction shaped, with its note ids);
#     the gate checks the citations, and customer copy naming the rival or an internal phrase.
#     A competitor named in an audience or a place takes its own slot; a place's line replaces
#     only a place's line (its whole lead-in matched, never " in " alone).
#     A decision may land later (a rule's `later`, engine.game.pending): the fork shows what lands
#     and at which stage, the board lists it pending, it lands as that stage runs; the skill ladder.
#     A venture keeps its books in its founder's currency (USD, GBP, EUR; from the form, the pitch's
#     money or place, else USD), recorded in the start; every amount is written in it, and a price
#     the CEO names in it binds ("40 quid a visit" on a pound venture binds £40 a visit).
# 66: readings generalise (grammar over cue rows); a price in another currency refuses no sibling.
#     Lines say what happened in this venture (engine.writing.outcomes): a consequence names what
#     it moved at the company ("…; at Meal Kits Co, paying customers rose from 19 to 27."), a
#     decision that lands later says the same ("Your earlier call, to …, lands at …: …"), a shipped
#     stage's note names its worker, company, day, redos and score in one sentence.
#     Each founder has a kind of move that pays it extra (Archetype.tag_effects, in the option's
#     effect line); the rival answers a repeated pattern harder (5 threat a repeat, was 3); a
#     venture may hand one stage to another role's worker (engine.game.world.HANDOVERS), shown on
#     the board from day 0.
# 67: directions compose in the whole artifact: a redo speaks to every audience that binds and
#     puts back what its rewrite broke; warm survives shorter and plainer; shorter keeps the
#     sentences carrying a channel, place or scope; realised lines never say what a claim or an
#     exclusion leaves out; a thing named later lifts a claim that left it out; a free price is
#     refused at the confirm.
#     A short clause that names something no cue places is unread with a reason ("unplaced"), not
#     commentary; a clause whose words a direction read elsewhere took is a direction part; refusals
#     read as refusals ("X? nope", "anything but X", "not before week 8", "stay off X", …); a tone
#     word before a noun describes the thing ("the warm network"); hurried spellings read ("thru").
#     A fork speaks of this venture (engine.game.fork_slots): option texts, trade-offs, titles and
#     questions are templates naming its company, customer, offering and rival and the option's
#     own previewed numbers; cards and the next brief say what binds in its words; the rival's read
#     of a pattern names the stages; events' choices name the company or customer.
#     What the CEO chose before changes what an option does (a rule's `after` effects: shipping
#     at 70 percent makes automating support cost more, sharing the upside or allying makes
#     outside owners cost more), shown in the option's preview and hint; the planner reads it.
#     The deck is larger and drawn by the company's state: FIND may pose referrals or case
#     studies once trust is high (two new rule records).
#     A pitch's payer is read from its grammar: an opening cue verb, a possessive, "office workers",
#     a subject before its verb, "paid by", a later sentence; a pronoun, figure or "hire" is none.
# 68: a thing is the same thing with or without its accents ("cafe" leaves out "café"): the gate
#     checks, and the worker leaves out, both spellings; "gas", "SMS", "canvas" are one thing,
#     not "ga", "SM", "canva".
#     A pitch's buying place is grammar's one list of organisations, not payer rows fitted to
#     one pitch.
#     Ventures differ in shape: after a fork the company's state may add a stage with its own fork
#     (a cash crunch adds BRIDGE, a rival's raid adds HOLD: four new rule records) or skip one
#     (strong traction skips TAKE), shown on the board and logged (engine.game.shape); a fork
#     path is a letter per fork the venture has; an option says what it makes dearer or cheaper
#     at a later stage (the later rule's `after`), on its own card.
#     What is not the player's own wish binds nothing: a fact about others ("every competitor is
#     at $49"), reported speech ("my mum said …"), a count of our work ("we refurb 50 a month"), a
#     hedge or chatter ("maybe?", "fair enough"); a cue with no value is unread ("no_value", its
#     teach-back naming the axis) and asked; a clause about the name binds its capitalised words
#     ("the name should be Pawsome"); our strategy said as a statement binds ("we sell to nurses");
#     "any- but X" leaves X out; a part that binds nothing says why (headless warning, --json).
#     An own answer picks what it does now: an option named after "then" or with "later" counts
#     against it ("keep the gig till 10 kitchens, then go full time" keeps the side income).
#     One picker for an own answer (engine.language.reader.pick), the game's and the reader's:
#     "neither" picks none, a letter or an ordinal picks outright, then the option keywords, then
#     the option's own words or figures ("the cheaper one"; never a function word like "before").
# 69: the standup's playbook line is the decision's own: each rule's record names a playbook
#     section and the line of it that backs the choice ("Pricing follows position | A position as
#     the cheaper …"), instead of a search on the rule's slogan that cited hybrid ownership forms
#     for a side contract.
#     A role's duty that named what the CEO left out is replaced by a duty, not a benefit line.
#     "guaranteed" is a form of "guarantee" (and "agreed" of "agree"): leaving out the guarantee
#     takes out what is guaranteed, for the gate and the worker alike.
#     An event names the customer as the CEO last named it (the niche), not the pitch's words.
#     An option's note on a later stage says "(if it is offered)" where that stage's draw may pose
#     another dilemma.
#     An abbreviation is written in capitals however it was typed ("hr managers" -> "HR
#     managers": grammar_words.json acronyms).
#     A one-word refusal is a shade of the tone only beside the tone and never people ("…, not the
#     riders. and cut the jargon" lost the riders).
#     The rival's or the company's name typed in another case binds as the venture spells it.
#     A pitch's payer is read from more of English's frames: a verb that aims ("targeting",
#     "aimed at", "serving"), "helping" after a noun, a subject that pays ("employers pay for
#     coaching for their staff"), the subject of a relative clause ("invoicing that freelancers
#     enjoy"), a role as a modifier ("landlord compliance checklists"), "our customers are X",
#     "a tinder for …", aide / ayuda; more buying places, occasions and owned things (garage,
#     theatre, care home, christening, maternity, caravan …); a thing for hire has no owner who
#     pays. The offering is never a name before ":", "-", "is", nor a lone participle ("Built for
#     parents: a meal planner"); a pitch that opens with its customer takes it after "our",
#     "we <verb>" or what they need. A place may follow "into" or "serving"; "no"/"not" end a
#     customer; a plural the lemmas lack ("stag dos") meets its payer row.
#     What happened before is a fact, never a direction: a time gone by ("last year we charged
#     $40", "we used to sell at £25") or the player's own past doing ("i grew up in Leeds", "we
#     tried instagram") binds nothing, unless it says what changes now or tells a decision ("we
#     renamed it to Borrow Box"); what someone the player knows does ("my sister pays £12") is a
#     fact about them; "we're a charity" binds no scope unless set against something ("now",
#     "not a logistics company"). A hedge or filler either side of a value is not part of it
#     ("perhaps nurses tbh": nurses); "only the small ones" names nothing and is unread.
#     A known place typed in lowercase is the place ("start in leeds", "manchester only"), save
#     one that is also a common word in lowercase ("us", "bath": words.json places_cased_only).
#     A negation inside a phrase that affirms what follows negates nothing ("why not nurses?",
#     "no harm in trying tiktok", "don't forget the nurses": words.json affirming): the cue after
#     it binds as said, or the value's own kind; never the opposite. "just charge £20" binds no
#     scope "charge".
#     A price others set ("gousto charges £30", "the shops near me sell it for 20 quid"), what the
#     player heard ("i heard …", "apparently …") and money we hold or spent ("we have £5k in the
#     bank") bind no price and ask nothing.
#     A claim is what is said of it ("don't claim it cures back pain": cures back pain; "dont say
#     we're the cheapest": cheapest); a quoted value runs to its closing quote ("lose the 'best in
#     class' line"); new frames: "stop claiming", "never claim", "advertise in", "stock it in",
#     "keep it to", "just do". A contraction typed without its apostrophe ("dont", "cant", "im")
#     reads as the contraction (spellings.json); the "dont …" twins of "don't …" frames go.
#     A thing dismissed as not worth doing is left out ("facebook ads are a money pit", "X doesn't
#     work for us", "tablets break too easily": words.json dismissed_by).
#     A cue's lead is read past adverbs and a progressive "be" ("we should be selling to hr
#     teams"); "mainly", "mostly", "directly" are no part of a value; new frames "reach out to",
#     "approach" (by the value's kind).
#     An own answer that moves the picked option's week ("soft launch, but a week earlier") binds
#     that week moved (week 5 of "Soft launch week 6"), not a move of whatever week is in force.
#     A figure after a claim cue is the claim's words ("dont promise 24 hour delivery" was a target
#     of 24 hours a week; "don't promise 500" left out "500"); frame "never promise".
# 70: A pitch's place is read from any of its sentences, and a known place typed in lower case is
#     written as it is spelled ("in leeds" -> "Leeds"); a payer may stand before "pay per …" with
#     a place between ("dog owners in leeds pay per groom"), and "per" is English there.
#     An own answer is read once, against its fork: the words that pick an option are no unread
#     part, the option's own content is the decision's, and what binds nothing is said.
#     Grooming is its own world (telling words, word banks, event words): a mobile dog-grooming
#     van wrote about "carers who cancel at the last minute", the pet-sitting world's pain.
#     What the CEO left out or barred as a claim is found with its words side by side in either
#     order: "the first month is free" says "free month" (the gate passed it, the redo kept it and
#     said "the claim was already gone").
#     A pitch's payer is the subject of any paying verb ("council pays some of it", "HR teams buy
#     them", "employers cover it"), never of a negated one; "we clean gutters" offers "clean
#     gutters"; "an app where landlords find …" is for landlords; "the landlord pays" sells to
#     landlords (one body that pays, "the council", stays one).
#     An own answer narrows the customer and leaves things out only as its one reading binds: the
#     picker's own guess made "mates - the dog park" the customer of "not just mates - the dog
#     park crowd".
#     A week a claim holds is the claim's words: "we cant promise results in 4 weeks" bound a
#     launch in week 4 and left the claim "results in".
#     Frames "its about X" (by X's kind) and "its / it's / it is not about X" (leave X out), and
#     "ppl", "n" spelled as "people", "and": "nah its not about cancellations, its about ppl with
#     big dogs" was two clauses of commentary.
#     A bare "too …" right after a thing left out says why it is left out: "forget london, too
#     pricey" lowered the work's price.
#     Prep, storage, rental, entertainment and transport take no article ("gives busy nurses a
#     meal prep").
#     The reader reads what hurried players type, by class: "X are/r our crowd|people|folks" and
#     postfix roles ("are our bread and butter", "is how we grow"); "a score", "a ton", "thirty
#     five quid" (number words compound; it was £5); "X rather than / instead of Y" and "X not Y"
#     after a verb bind X by its kind ("go after nurses not doctors" lost the doctors); "its the
#     electricians" beside a refusal is the audience; "reddit and tiktok" and "a + b" are two;
#     "ebikes not yet", "kitchen later" are deferred; trailing "instead" is no part of a value;
#     frames "scratch", "don't bother with", "no to", "can't promise", "aimed at", "do <channel>";
#     a price with no period for an app or subscription is a month's (words.json subscribed).
#     A role said after a list reads each item and a refusal after it ("plumbers and sparkies are
#     our people not accountants"); "its parents not students", "it's landlords, not tenants"
#     name the audience; "leeds not york" the place; "X, that's it" centres the work on X; a
#     range runs on in a value ("places with 10 to 30 staff"); "school run dads" are people.
#     More frames and words as data: bin-less removals (kill, nix, axe, shelve, hold off on),
#     "go for", "hand out", "post in", "get into", "team up with", channel head nouns, periods
#     ("a yr", "a pop", "pa"), "insta"/"fb" spelled out. "payroll in v2 / eventually / next
#     year" defers; a message ending on a bare "no" refuses what it named ("tiktok, no" bound
#     TikTok); "B but also mumsnet" keeps B's channel beside Mumsnet (words.json also_words).
# 71: "the rival" (or the competitor, the competition) left out is the rival by name ("dont
#     mention the rival" bound "leave out rival", and the work went on naming Quota Holdings).
#     A time of day ("3:15") is one word, not a clause break ("the mom doing pickup at 3:15 with
#     no plan for dinner" was cut to "mom doing pickup at 3").
#     "chatty", "chattier" and "conversational" ask for a warm tone ("keep it chatty" was unread).
#     Allotments, veg and produce are farming; "kit" alone is no meal ("solar kits for allotments",
#     the energy world's own example, was read as meals; an allotment veg swap as care).
#     A bare finite verb is no value ("council just pays" bound the scope "pays"), and "ppl" is
#     written "people" in a value ("allotment ppl" was the audience the work spoke to).
#     "not till / not til week 6" is the launch's earliest week, as "not until" ("full time but
#     not till week 6" bound "launch in week 6").
#     "its" after a negated thing opens the clause that corrects it ("its not for students its
#     for their parents" left the parents out); "and the X" adds X to a list unless a clause
#     follows; a swap ("swap facebook for nextdoor", "replace X with Y") leaves the first out
#     and names the second; "for a while / for good" end a value.
#     "fewer words", "less words", "wordy", "less text" ask for a short tone.
#     A letter or an ordinal under a negation refuses its option ("not A", "anything but the
#     first one" picked the option refused); a refused letter is no thing to leave out.
#     "in" before a whole known place in lowercase names the place ("A but in leeds not london"
#     bound only "leave out london"), and a known place in lowercase is written as it is spelled
#     (Leeds), unless it is also a common word (bath).
#     A pitch is read by frame, not phrase: "sold to X" names who buys; "X subscribe", "X pay £5 a
#     head for our Y" name who pays and what; "booked by the hour" names no payer; a claim before
#     a colon or dash ("Cheaper than Deliveroo:", "Save time on rotas:") is no offering; an
#     opening payer keeps its modifiers ("wheelchair users can book …"); "we help X <verb> Y (with
#     Z)" offers Z or the deed ("rent collection"); a service done to a thing is its owner's
#     ("car valeting" -> car owners); "marketplace connecting …" offers a marketplace; more
#     buying places (societies, hospices, banks …) and occasions (retirement, divorce, Valentine's
#     …); chat before the offering ("so basically its an app …") is none of it; a minor or pet in
#     Spanish, French or German maps to its payer in that language ("para niños" -> padres); a
#     participle after the payer ("remote workers delivered weekly") or a modal ("walkers in
#     london can find …") is no part of who pays or where.
#     An option named beside the player's own channel or people keeps both ("markets and flyers",
#     "B plus flyers at the school gate" lost one or both); a bare "the X" with no verb is a thing,
#     not a reason; a value never ends in "too".
#     A cue after "or we", "otherwise we", "if we" is a consequence, not an order ("… or we lose
#     money" left out "money").
#     Asking why we do a thing leaves it out ("why are we selling to tenants" bound tenants as the
#     audience); "we're only doing manchester", "we only do manchester" name the place and "we're
#     doing flyers" the channel; a kind of business is no name ("we're B2B" named the product
#     B2B); "at all", "for this" and a multi-word terminator end a value ("covid at",
#     "Chromebooks from").
#     The reader generalises by class (a second blind set, tests/data/directions_blind.jsonl):
#     deferrals "park X (for now)", "leave / save / keep X for later", "put X on hold" (a frame's
#     "until" may be a phrase), read past a leading filler or "and" ("maybe students later" was
#     an audience); "target" / "sell to" bind any plural noun phrase as the buyers ("target office
#     parks", "Sell to hospices"); a list's tail after a comma runs on the value before it ("aim at
#     pickers, drivers and the night shift"), and a channel cue's list keeps its axis ("through
#     mosques, churches and schools"); "call it X not Y" / "Manchester only, not the north west"
#     refuse Y on the name / place axis instead of leaving it out; "its <people> …" points to the
#     relative or the next subject ("its retired people who have time"); "Rota is just a word",
#     "insta is just portfolios" centre nothing; "Free for X" is free, an option's "hospices pay"
#     no value; "mad", "steep" dismiss a figure, a bare "isn't" after one sets it aside; "hmm no"
#     restarts an own answer; "start / launch / open at <Name>" place the company, "to begin
#     with" ends a value; "you decide", "up to you" at a fork are chatter; "X is where they are",
#     "X would sell these", "X should be handing these out" name a channel.
#     A bare app, platform or tool says what it is for ("app for allotment holders … to swap
#     surplus veg" read "Offering: app"); before another noun the work says its head ("the next
#     app release"), and the company is named from it.
#     "The wrong people" give way to the people named ("wrong people, aim at nurses" also bound the
#     pitch's customer); "wrong crowd / market / buyers" complain of the audience; "should be X"
#     and "needs to be X" name people ("who is this even for? should be gym owners" was chatter).
#     "first" before a noun is part of the thing ("mention the free first class" bound "the free").
#     A count set against another corrects the target ("40 customers not 400" was unread).
#     "the other" picks the option not named ("rota is boring, the other" picked Rota); a tone word
#     said of an option is no tone; beside a move ("Raise a seed round") a one-word option
#     ("Bootstrap") is a move, not a name; a figure said beats "in between"'s midpoint.
#     "drop the price (a bit)" lowers it (it left "price a" out); "less about price, more about
#     trust" moves no price; "if we drop the price …" is no move; "nobody" ends a value ("ditch
#     the blog nobody reads it"); "should be X" gives way to a verb's own cue ("should be talking
#     to head teachers").
#     Capitalised words after the name is spoken of are the new name ("name's wrong. Tidy Tails"
#     was unread); "call it a/an …" names nothing ("dont call it an app" refused the name "an").
#     A brand after chat is still the brand ("basically uber for dog walking" offered "uber"), and
#     the place after it is no part of the offering ("dog walkers in"); "we do X" offers X; a
#     comma ends an offering that no list carries on ("house cleaning airbnb"); a known place on
#     its own after a comma or stop is the place ("…, manchester").
#     "no prices in the email", "dont put the price in" never bind "state the price" (the
#     opposite): an order opening with a negation is asked about; "where is the price?" and
#     "theres no price" still ask for it.
#     "make it about X" names people, or else what the work centres on ("make it about the dogs
#     not the owners" was unread).
#     No text puts a word before a customer that may carry its own article (the niche "the
#     busiest nurses"): the referral wave read "Happy the busiest nurses start telling their
#     peers", now "The busiest nurses, happy with your regular visits, start telling their
#     peers."; the simulated strategist's "The first {customer} signed up" names the first
#     nurses; the case-studies option writes up "three customers among {customer}".
#     The rival pitches "head-on to {customer}" (a long niche stranded "head-on" after it), and a
#     standup names a playbook section titled as an order by its -ing form ("the playbook on
#     mapping the field", was "on map the field").
#     A flanked audience prices per its own head: the simulated page read "£60 a month per
#     tradespeople the big players ignore" and "proof points from tradespeople the big players
#     ignores"; now "per tradesperson", "from tradespeople". Two kinds of customer count in
#     customers ("each plumbers and electrician" was written for "plumbers and electricians").
#     The strain lens names the team, not the runway: a goal read "With runway tight, favour
#     moves that pay for themselves quickly: … (strain at 80/100)" with 1.3 months of runway.
#     An event between stages restates the next goal's numbers (and so its lens): a tax bill
#     left the goal at "0.8 months of runway left" beside the standup's "0.6 months".
#     A change of shape names the niche, its verb agreeing ("the busiest nurses carry", was the
#     pitch's "busy nurses carry" beside the niche in every other line).
#     A figure we make, hit or reach is revenue, never the price ("no new hires til we make 30k a
#     month" bound a price of £30,000 a month); "i said / i told you no X" still leaves X out.
#     A pitch's "round bristol" names the place; "n", "&", "+" between words are written "and"
#     ("plumbers n sparkies"); GCSE, DBS, HMRC, VAT, UCAS, Ofsted … are written in capitals.
#     "go through X" names a channel when X is people or a known channel ("go thru the nurses i
#     know" was unread, "go through the nurses" an audience); "i" ends a value; "X will do", "X is
#     plenty" centre the work on X.
#     "and swap …" opens a new instruction ("dont mention the rival and swap facebook for
#     nextdoor" left out "rival and swap facebook").
#     A redo told of other people makes the verbs agree again ("Allotment people wants", "one
#     allotment people" were written where the council had stood).
#     "doing X" names X only after "we're / we are / i'm" ("doing leeds is pointless" started the
#     company in Leeds); "myself", "ourselves" end a value.
#     "its <place>" (or "its for <place>") after a refusal names the place ("its not leeds its
#     york" lost York); "its" with one last word after a negation opens its own clause.
#     An own answer takes the rival's and the company's names as a rejection does.
RULES_VERSION = 71

# The fields of the pitch's reading the player confirms or corrects (new-venture form, simulate).
READING_FIELDS = ("customer", "offering", "place", "problem")


@dataclass(frozen=True, eq=False, repr=False)
class StartInputs(FrozenRecord):
    """What founds a venture. The reading's fields hold what the player confirmed ("" = as read),
    so a replay founds the same company whatever a later reader makes of the pitch."""

    pitch: str
    name: str
    archetype: str
    seed: int
    customer: str = ""
    offering: str = ""
    place: str = ""
    problem: str = ""
    currency: str = "USD"  # the books' currency code (USD, GBP, EUR)

    def record(self) -> dict[str, Any]:
        """The `start` step of the run's recorded inputs (what replay re-plays)."""
        return {"cmd": "start", **asdict(self)}


def validate_start(
    pitch: str,
    name: str | None,
    archetype: str,
    seed: int,
    reading: Mapping[str, str | None] | None = None,
    currency: str | None = None,
) -> StartInputs:
    """Clean and check everything before anything is written; raise InputError with one line.

    `reading`: the confirmed customer, offering, place and problem (each optional, one line,
    plain text, at most MAX_FIELD_CHARS); an unknown field is refused. `currency`: the books'
    currency ("GBP", "£", "pounds"); None keeps the pitch's (engine.language.currency)."""
    pitch = clean_text(pitch, field="pitch", max_chars=MAX_PITCH_CHARS)
    if len(content_words(pitch)) < 2:
        raise InputError("pitch needs at least a few words about what the company does")
    fields = _reading_fields(reading or {})
    name = clean_text(name or "", field="name", max_chars=MAX_NAME_CHARS, required=False)
    if not name:
        name = company_name(pitch)
    archetype = (archetype or "").strip().lower()
    if archetype not in ARCHETYPES:
        raise InputError(f"unknown archetype {archetype[:30]!r} (choose {', '.join(ARCHETYPES)})")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise InputError("seed must be a whole number from 0")
    code = pitch_currency(pitch) if currency is None else currency_code(currency)
    return StartInputs(
        pitch=pitch, name=name, archetype=archetype, seed=seed, currency=code, **fields
    )


def _reading_fields(reading: Mapping[str, str | None]) -> dict[str, str]:
    unknown = sorted(set(reading) - set(READING_FIELDS))
    if unknown:
        raise InputError(
            f"unknown pitch field {unknown[0][:30]!r} (use {', '.join(READING_FIELDS)})"
        )
    out = {}
    for key in READING_FIELDS:
        value = clean_text(
            reading.get(key) or "", field=key, max_chars=MAX_FIELD_CHARS, required=False
        )
        out[key] = " ".join(unmarked(value).split())  # one line, no markup or typed escapes
    return out


def found_state(inputs: StartInputs, run_id: str) -> GameState:
    """The company on day 0: org, economics, eight stages (who ships each: a handover may move
    one), the rival."""
    org = economy.founding_org()
    customer = capitals(inputs.customer or customer_from_pitch(inputs.pitch))  # "HR teams"
    founder = Founder(
        name="You",
        company=inputs.name,
        pitch=inputs.pitch,
        archetype=inputs.archetype,  # type: ignore[arg-type]
        customer=customer,
        keywords=content_words(inputs.pitch)[:8],
        offering=inputs.offering,
        place=inputs.place,
        problem=inputs.problem,
        currency=inputs.currency,
    )
    start = ARCHETYPE_RULES[inputs.archetype].start
    state = GameState(
        rules_version=RULES_VERSION,
        run_id=run_id,
        seed=inputs.seed,
        founder=founder,
        stages=build_stages(
            org, handover_for(inputs.seed, inputs.archetype), company=founder.company
        ),
        org=org,
        economics=economy.initial_economics(org, start, pricing.list_price(inputs.seed)),
        antagonist=forge(inputs.archetype, customer, inputs.seed),
    )
    state.history.append((0, state.economics.treasury_usd))
    return state


def knowledge_for(settings: Settings) -> Knowledge:
    """Playbook search; the Foundry IQ tier only when the game runs live (simulation stays offline)
    and both the Search service endpoint (FOUNDRY_IQ_ENDPOINT) and the knowledge base are set."""
    from knowledge import Knowledge

    if getattr(settings, "demo_mode", "simulation") != "live":
        return Knowledge()
    return Knowledge(
        settings.foundry_iq_endpoint,
        settings.foundry_iq_knowledge_base,
        timeout_s=remote_deadline(settings.agent_request_timeout),
    )


def cloud_memory_for(settings: Settings) -> CloudMemory | None:
    """The Foundry memory tier, only when the game runs live and both settings are present."""
    if getattr(settings, "demo_mode", "simulation") != "live":
        return None
    from memory.foundry.cloud import CloudMemory

    return CloudMemory.from_env(
        {
            "FOUNDRY_PROJECT_ENDPOINT": settings.foundry_project_endpoint or "",
            "FOUNDRY_MEMORY_STORE": settings.foundry_memory_store or "",
            "AGENT_REQUEST_TIMEOUT": str(settings.agent_request_timeout),
        }
    )
