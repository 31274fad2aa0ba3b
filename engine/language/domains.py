"""The worlds a pitch can be about (rules as data): what the offering is about and what the
customer's trade is. `engine.language.pitch` reads a pitch into one of each; the word banks in
`engine.writing.worlds` and `engine.writing.trades` are keyed by the same names, so a meal-kit
company for nurses writes about meals and night shifts, never about patient records.

Each entry is a tuple of telling words (whole words, lower case; a few in other languages and
scripts) and, for offering worlds, the customer to fall back to when the pitch names none.
"""

from __future__ import annotations

# fmt: off
# offering world -> (telling words, the customer when the pitch names none)
WORLDS: dict[str, tuple[tuple[str, ...], str]] = {
    "meals": (
        (
            "meal", "meals", "kit", "kits", "recipe", "recipes", "lunch", "lunches", "dinner",
            "dinners", "food", "catering", "grocery", "groceries", "cooking", "canteen",
            "canteens", "crêpes", "crepes", "snacks", "bread", "bröd", "comida", "cuisine",
            "식사", "弁当", "prep", "soup", "salads", "bakery", "bakeries", "pastries", "cakes", "cake", "ramen",
            "noodles", "pizza", "sushi", "tacos",
        ),
        "busy households",
    ),
    "drinks": (
        ("coffee", "tea", "thé", "café", "espresso", "wine", "beer", "brewery", "breweries",
         "お茶", "茶", "juice", "kombucha", "cocktails"),
        "coffee drinkers",
    ),
    "energy": (
        ("solar", "microgrid", "microgrids", "battery", "batteries", "power", "energy",
         "energia", "electric", "heat", "pump", "pumps", "wind", "grid", "charging", "ev"),
        "households off the grid",
    ),
    "farming": (
        ("crop", "crops", "soil", "irrigation", "harvest", "seeds", "livestock", "orchard",
         "weather", "天気予報", "farm", "rotation", "farming", "agriculture", "vineyard", "greenhouse"),
        "small farms",
    ),
    "care": (
        ("hearing", "aids", "therapy", "physiotherapy", "medical", "health", "check-ins",
         "clinic", "dental", "pharmacy", "vaccine", "cold-chain", "wellbeing", "mental",
         "diagnostics", "healthcare"),
        "care teams",
    ),
    "fitness": (
        ("yoga", "gym", "fitness", "surf", "pilates", "running", "training", "swimming",
         "climbing", "workouts", "sport", "sports"),
        "people getting fit",
    ),
    "bookings": (
        ("booking", "bookings", "scheduling", "schedule", "reservation", "reservations",
         "réservation", "reservas", "appointments", "rota", "rotas", "shift", "swapping",
         "receptionist", "calendar", "予約"),
        "small service businesses",
    ),
    "money": (
        ("tax", "invoicing", "invoices", "accounting", "bookkeeping", "payroll", "finance",
         "loans", "insurance", "budget", "budgeting", "buchhaltung", "记账", "payments",
         "pensions", "savings", "costing"),
        "small business owners",
    ),
    "learning": (
        ("tutoring", "lessons", "lesson", "course", "courses", "classes", "aulas", "teaching",
         "homework", "curriculum", "language", "languages", "coaching", "workshops",
         "coding", "bootcamp", "bootcamps", "clases", "cursos", "cours", "kurse"),
        "learners",
    ),
    "fashion": (
        ("dress", "dresses", "rent-a-dress", "clothing", "clothes", "fashion", "tailoring",
         "shoes", "jewellery", "jewelry", "vintage", "alterations", "uniforms"),
        "couples planning a wedding",
    ),
    "weddings": (("wedding", "weddings", "bridal", "ceremony", "ceremonies", "flowers", "florals"), "engaged couples"),
    "bikes": (
        ("bike", "bikes", "e-bike", "e-bikes", "cargo", "cycling", "scooters", "scooter",
         "tyres", "puncture"),
        "city riders",
    ),
    "repairs": (
        ("repair", "repairs", "fix", "fixing", "phone", "phones", "laptop", "laptops",
         "gadgets", "electronics", "refurbished", "gear", "servicing"),
        "people with broken things",
    ),
    "sharpening": (
        ("sharpening", "sharpen", "knife", "knives", "blade", "blades", "scissors", "grinding"),
        "busy kitchens",
    ),
    "routes": (
        ("route", "routes", "routing", "lieferdienst", "logistics",
         "courier", "dispatch", "fleet", "freight", "配達", "配送", "배달"),
        "delivery teams",
    ),
    "pets": (
        ("dog", "dogs", "cat", "cats", "pet", "pets", "grooming", "walking", "kennel",
         "vet", "puppy", "kitten"),
        "pet owners",
    ),
    "childcare": (
        ("childcare", "babysitting", "nanny", "nannies", "nursery", "daycare", "creche"),
        "working parents",
    ),
    "laundry": (
        ("laundry", "laundrette", "laundromat", "washing", "wash", "wash-and-fold", "ironing",
         "dry-cleaning", "folding", "linen", "linens", "garments"),
        "busy households",
    ),
    "homes": (
        ("cleaning", "plumbing", "installs", "renovation", "handyman", "gardening", "garden",
         "insulation", "roofing", "decorating", "moving"),
        "homeowners",
    ),
    "plants": (
        ("plant", "plants", "watering", "houseplants", "plant-care", "succulents", "seedlings"),
        "plant owners",
    ),
    "housing": (
        ("tenant", "tenants", "rent", "rental", "rentals", "housing", "landlord", "lettings",
         "flat", "flats", "apartment", "apartments", "co-living"),
        "renters",
    ),
    "software": (
        ("software", "ci", "dashboard", "dashboards", "api", "apis", "devops", "saas", "code",
         "analytics", "logiciel", "monitoring", "deploys", "testing"),
        "small product teams",
    ),
    "stock": (
        ("inventory", "stock", "在庫管理", "loyalty", "card", "point-of-sale", "pos",
         "ordering", "supplies", "会员卡", "warehouse"),
        "independent shops",
    ),
    "marketplace": (
        ("marketplace", "resale", "secondhand", "second-hand", "auction", "listings"),
        "collectors",
    ),
    "media": (
        ("podcast", "podcasts", "editing", "video", "videos", "photography", "film", "music",
         "música", "newsletter", "content", "illustration", "design"),
        "independent creators",
    ),
    "legal": (
        ("compliance", "legal", "contracts", "contract", "checklist", "gdpr", "licensing",
         "permits", "file", "sharing", "secure", "audit", "audits"),
        "small firms",
    ),
    "travel": (
        ("tour", "tours", "hotel", "hotels", "hostel", "trips", "travel", "holidays",
         "tide", "camping", "guides", "excursions"),
        "travellers",
    ),
    "careers": (
        ("résumé", "resume", "cv", "careers", "career", "hiring", "recruiting", "interviews",
         "jobs", "job", "translation", "grant-writing", "grants", "grant", "apprenticeship",
         "apprenticeships", "internships", "placements"),
        "job seekers",
    ),
    "community": (
        ("repair-café", "cafés", "pop-up", "events", "meetups", "club", "clubs", "volunteers",
         "neighbourhood", "community"),
        "neighbours",
    ),
}

# customer trade -> telling words (the customer's own words, the setting's words)
TRADES: dict[str, tuple[str, ...]] = {
    "nursing": (
        "nurse", "nurses", "night-shift", "hospital", "hospitals", "ward", "wards", "porters",
        "infirmières", "看護師", "간호사", "nhs", "midwives", "carers", "paramedics",
    ),
    "clinics": (
        "clinic", "clinics", "physiotherapy", "practices", "dental", "kinésithérapeutes",
        "physios", "therapists", "vets", "pharmacies", "doctors", "gps",
    ),
    "teaching": (
        "teachers", "schools", "school", "escuelas", "écoles", "classrooms", "tutors",
        "primary", "students", "pupils", "crianças", "kids", "children",
    ),
    "farming": (
        "farmers", "farms", "growers", "vineyard", "smallholder", "农家", "農家", "cooperatives",
        "agriturismi", "orchards", "ranchers",
    ),
    "hospitality": (
        "restaurants", "cafés", "cafes", "kaféer", "bakeries", "bäckereien", "パン屋", "咖啡馆",
        "chefs", "breweries", "bars", "canteens", "caterers", "hotels", "food",
        "truck", "pubs",
    ),
    "couriers": (
        "couriers", "drivers", "riders", "delivery", "dispatchers", "cabbies", "truckers",
    ),
    "freelance": (
        "freelance", "freelancers", "illustrators", "designers", "podcasters", "artists",
        "künstler", "photographers", "writers", "musicians", "creators", "makers",
    ),
    "retail": (
        "shops", "stores", "sellers", "etsy", "traders", "market", "retailers", "商店",
        "boutiques", "salons", "hair", "florists", "retail",
    ),
    "tech": (
        "engineers", "developers", "product", "teams", "startups", "devops", "sres",
    ),
    "families": (
        "parents", "families", "mums", "dads", "households", "refugee", "kids",
    ),
    "elders": ("seniors", "elderly", "older", "retirees", "pensioners", "grandparents"),
    "homes": ("homes", "homeowners", "plant", "gardeners", "terraces", "houses", "flats", "neighbourhoods", "tenants", "housing", "renters"),
    "couples": ("couples", "wedding", "guests", "brides", "grooms", "same-sex", "engaged"),
    "charities": ("charities", "nonprofits", "ngos", "volunteers", "foundations"),
    "law": ("law", "firms", "lawyers", "solicitors", "accountants", "notaries", "agencies"),
    "workers": (
        "workers", "trabajadores", "migrant", "shift", "staff", "employees", "changers",
        "job", "cleaners", "porters",
    ),
    "learners": ("learners", "graduates", "apprentices", "career", "leavers", "school-leavers"),
    "pet owners": ("dog", "dogs", "cat", "cats", "pets"),
    "pet trades": ("groomers", "breeders", "kennels", "walkers", "groomer"),
    "collectors": ("collectors", "hobbyists", "enthusiasts", "fans", "gamers"),
    "care homes": ("care", "home", "agencies", "hospices", "residents"),
    "athletes": ("surfers", "runners", "climbers", "cyclists", "athletes", "swimmers"),
}
# fmt: on
