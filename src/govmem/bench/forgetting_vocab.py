"""Word lists and filler templates of the forgetting-data generator.

Everything here is fictional. Names, streets and firms are drawn at random for each
episode, and filler reuses the same pools (a doctor's name, a street, a firm in
ordinary chatter), so an entity that appears in an evidence turn is never by itself
a sign that a turn is evidence.
"""

from __future__ import annotations

FIRST_NAMES = (
    "Ana", "Jonas", "Priya", "Marco", "Lena", "Tomas", "Sofia", "Kwame", "Ines", "Malik", "Hana", "Ruben",
    "Greta", "Omar", "Yusuf", "Clara", "Dmitri", "Amara", "Felix", "Noor", "Elif", "Mateo", "Ingrid", "Kofi",
    "Leila", "Oskar", "Rosa", "Tariq", "Vera", "Emil", "Zainab", "Pablo", "Freya", "Idris", "Mira", "Nikolai",
    "Aiko", "Bruno", "Carmen", "Dev", "Esme", "Farid", "Gwen", "Hugo", "Isla", "Jae", "Kasia", "Luca",
    "Maeve", "Nadia", "Otto", "Petra", "Quinn", "Rania", "Sven", "Talia", "Umar", "Vik", "Wanda", "Yara",
)
SURNAMES = (
    "Ruiz", "Okafor", "Lindqvist", "Haddad", "Moreau", "Brennan", "Nakamura", "Kowalski", "Adeyemi", "Varga",
    "Castillo", "Olsen", "Petrov", "Mensah", "Fischer", "Dubois", "Rahman", "Sorensen", "Quinlan", "Baptiste",
    "Ferreira", "Kaur", "Novak", "Achebe", "Holt", "Iversen", "Jovanovic", "Kim", "Laine", "Marchetti",
    "Nyberg", "Osei", "Pereira", "Rossi", "Sato", "Tanaka", "Ueda", "Vance", "Whitlock", "Yilmaz",
    "Zeller", "Abbott", "Bauer", "Carvalho", "Dimitrov", "Eriksen", "Fontaine", "Gallo", "Hirsch", "Ibarra",
)
STREET_NAMES = (
    "Elm", "Alder", "Birch", "Harlow", "Fenwick", "Copper", "Mill", "Orchard", "Quarry", "Juniper", "Kestrel",
    "Linden", "Marsh", "Nettle", "Osprey", "Pellow", "Rook", "Saffron", "Tanner", "Vicarage", "Willow",
    "Yarrow", "Ashby", "Bramble", "Chalk", "Dover", "Ember", "Foundry", "Granary", "Heron",
)
STREET_TYPES = ("Street", "Lane", "Road", "Row", "Avenue", "Crescent", "Way", "Close", "Terrace", "Place")
FIRM_PARTS = (
    "Kellerman", "Halvorsen", "Brightway", "Northgate", "Bluefin", "Corvid", "Driftwood", "Evergreen", "Fairlight",
    "Glasswing", "Hawthorne", "Ironbridge", "Juniper", "Kingfisher", "Lodestar", "Meridian", "Nimbus", "Oakridge",
    "Pinecrest", "Quayside", "Redstone", "Silverline", "Tidewater", "Upland", "Vantage", "Westbrook",
)
FIRM_KINDS = (
    "Logistics", "Analytics", "Insurance", "Partners", "Media", "Foods", "Engineering", "Software", "Consulting",
    "Print", "Freight", "Labs", "Design", "Energy", "Retail",
)
CAFES = (
    "the Copper Kettle", "Bean There", "the Daily Grind", "Moka House", "the Tin Cup", "Crumb & Co",
    "the Lantern Bakery", "Pressed", "the Corner Deli", "Little Fig",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)
TIMES = ("8:15", "8:40", "9:30", "10:10", "11:45", "12:20", "13:05", "14:30", "15:50", "16:15", "17:40", "18:20")
FOODS = (
    "lasagne", "lentil soup", "tacos", "a stir fry", "risotto", "fish pie", "curry", "pancakes", "a big salad",
    "dumplings", "shakshuka", "roast chicken", "pasta bake", "chili", "falafel wraps",
)
CHORES = (
    "the recycling", "the laundry", "hoovering the stairs", "the dishwasher", "watering the plants",
    "changing the beds", "the bathroom", "ironing the shirts", "clearing the gutters", "defrosting the freezer",
)
ITEMS = (
    "oat milk", "batteries", "bin bags", "coffee beans", "eggs", "toothpaste", "bread", "lemons", "rice",
    "dish soap", "tomatoes", "cat food", "printer paper", "light bulbs", "sellotape",
)
SHOWS = (
    "the baking show", "that Danish crime series", "the football", "the quiz show", "the nature documentary",
    "the new sci-fi thing", "the cooking competition", "the darts", "the period drama", "the stand-up special",
)
WORK_THINGS = (
    "the quarterly deck", "the budget spreadsheet", "the onboarding doc", "the vendor contract", "the sprint review",
    "the client pitch", "the warehouse report", "the newsletter draft", "the hiring plan", "the audit checklist",
    "the website copy", "the roadmap slides",
)
ACTIVITIES = (
    "swimming", "the climbing wall", "yoga", "five-a-side", "choir practice", "pottery class", "the running club",
    "badminton", "the book club", "spin class", "Spanish lessons", "the allotment",
)
WEATHER = (
    "pouring", "freezing", "gorgeous out", "so windy", "grey and drizzly", "weirdly warm", "foggy", "icy on the paths",
)

FILLER = (
    "Can you add {item} and {item2} to the shopping list?",
    "Remind me to put out {chore} tonight.",
    "It's {weather} again, I'm taking the bus.",
    "We're having {food} for dinner, {person} is cooking.",
    "Did anyone see where I left the car keys?",
    "The train was twenty minutes late, standing room only.",
    "I finally finished {work}, sending it before lunch.",
    "{person} wants to watch {show} tonight, fine by me.",
    "Booked {activity} for {weekday} at {time}.",
    "Coffee at {cafe} with {person} at {time}, don't let me forget.",
    "The washing machine is making that noise again.",
    "Can you move my {time} meeting to after lunch?",
    "{person} says the parcel came while we were out.",
    "Need to renew the parking permit before the end of {month}.",
    "Kids have a non-uniform day on {weekday}, they need a pound each.",
    "Is the bin collection on {weekday} or {weekday2} this week?",
    "I left my umbrella at {cafe}, typical.",
    "The boiler man is coming between {time} and {time2}.",
    "Skipped {activity} today, too tired.",
    "{person}'s birthday is coming up, any gift ideas?",
    "Ordered {item} online, should arrive {weekday}.",
    "Can you check if the library books are due this week?",
    "Meeting with the {firm} people ran over by half an hour.",
    "The printer on the third floor is jammed again.",
    "Lunch was {food} from the place on {street}, not bad.",
    "{person} has a dentist check-up on {weekday}, can you note it?",
    "Remind me to call the garage about the brakes.",
    "Our team drinks are on {weekday} at the pub near {street}.",
    "The wifi keeps dropping in the back room.",
    "Got soaked walking down {street}, forgot my coat.",
    "Please put {work} on my list for {weekday}.",
    "{person} is picking the kids up today.",
    "The neighbours on {street} are having a party again.",
    "Tried the new bakery on {street}, the cinnamon buns are great.",
    "The heating bill came in, a bit higher than last month.",
    "Don't forget we're at {person}'s for dinner on {weekday}.",
    "Can you remind me to water the tomatoes?",
    "The cat knocked a glass off the table again.",
    "I'm working from home on {weekday}.",
    "{firm} finally paid the invoice.",
    "The car needs an MOT before {month}.",
    "Half the office is off with a cold.",
    "Took the long way through the park, it was lovely.",
    "We need a new kettle, this one takes forever.",
    "{person} lent me a book about Roman roads, surprisingly good.",
    "Can you set an alarm for {time} tomorrow?",
    "The {firm} call got moved to {weekday}.",
    "Bought a plant for the windowsill, hope it survives.",
    "{person} and I are doing {activity} together now.",
    "The lift in our building is out of order again.",
    "Note to self: {item} is on offer at the corner shop.",
    "Roadworks on {street} all week, avoid it.",
    "Dinner idea for {weekday}: {food}.",
    "The kids want a sleepover on {weekday}, I said maybe.",
    "I owe {person} a coffee for covering my shift.",
    "Our quarterly all-hands is on {weekday} at {time}.",
    "Spilled tea on my keyboard, it still works somehow.",
    "Can you look up opening times for the tip on {weekday}?",
    "{person} recommended {show}, we started it last night.",
    "The school sent a letter about the trip in {month}.",
    "Forgot my lunch at home, getting {food} from the canteen.",
    "Meeting notes for {work} are in the shared folder.",
    "The window in the spare room won't close properly.",
    "Can you remind me to pay {person} back for the tickets?",
    "It's {weather}, so the match is probably off.",
    "Parked on {street} because the car park was full.",
    "New starter on the team today, seems nice.",
    "{person} is away until {weekday}, so I'm covering.",
    "Cleared out the garage, found my old bike.",
    "Quick one: is it {time} or {time2} for the call with {firm}?",
    "Planning to repaint the hallway in {month}.",
    "Watched {show} until way too late.",
    "Grabbed a sandwich at {cafe} between meetings.",
    "The dog needs his jabs sometime in {month}.",
    "Is there anything in the diary for {weekday} evening?",
    "Finished {chore}, finally.",
    "Got a reminder from {firm} about the renewal.",
    "The bus stop on {street} has moved round the corner.",
    "{person} sent photos from the weekend, so many of them.",
    "I'll be late, stuck behind a tractor.",
)
ASSISTANT_REPLIES = (
    "Noted.",
    "Got it.",
    "Added to your list.",
    "Done, I've saved that.",
    "Sure, I'll remind you {weekday} morning.",
    "Okay, it's in the diary.",
    "Thanks, noted for later.",
    "I've set a reminder for {time}.",
    "Understood.",
    "All right, I'll keep that in mind.",
    "Saved. Anything else?",
    "I've put it on the list for {weekday}.",
    "Okay, updated.",
    "Sounds good.",
    "Reminder set.",
    "I'll flag it tomorrow.",
    "No problem.",
    "Noted for {weekday}.",
    "Okay. Want me to remind you again later?",
    "Done.",
)
